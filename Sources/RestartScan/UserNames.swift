/// User names by uid, from a `passwd` file.
enum UserNames {
    /// The names in `path` (`name:x:uid:…` lines); empty when it cannot be read.
    static func read(_ path: String) -> [UInt32: String] {
        var names: [UInt32: String] = [:]
        for line in (FileMetadata.text(path) ?? "").split(separator: "\n") {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count > 2, let uid = UInt32(fields[2]), names[uid] == nil else { continue }
            names[uid] = String(fields[0])
        }
        return names
    }
}
