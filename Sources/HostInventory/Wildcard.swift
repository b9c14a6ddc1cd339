/// Shell-style wildcards as Ansible's host patterns use them (`fnmatch`): `*` any run of
/// characters, `?` one character; everything else stands for itself.
enum Wildcard {
    static func matches(_ pattern: String, _ name: String) -> Bool {
        let pattern = Array(pattern), name = Array(name)
        var p = 0, n = 0
        // Where the last `*` was, and the name position it was last tried at.
        var star: Int?
        var starName = 0
        while n < name.count {
            if p < pattern.count, pattern[p] == "?" || pattern[p] == name[n] {
                p += 1
                n += 1
            } else if p < pattern.count, pattern[p] == "*" {
                star = p
                starName = n
                p += 1
            } else if let star {
                p = star + 1
                starName += 1
                n = starName
            } else {
                return false
            }
        }
        while p < pattern.count, pattern[p] == "*" { p += 1 }
        return p == pattern.count
    }
}
