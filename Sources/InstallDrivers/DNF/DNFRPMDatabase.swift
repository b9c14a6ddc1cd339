/// The rpm database of a dnf job's root, read with rpm itself: what every package's verdict is
/// checked against at the end.
struct DNFRPMDatabase {
    /// The root (`--installroot`); `nil` for this system.
    let root: String?
    let rpm: String

    init(root: String?, rpm: String = "/usr/bin/rpm") {
        self.root = root
        self.rpm = rpm
    }

    /// rpm's arguments for the root: its database where dnf's is (`/var/lib/rpm` inside the
    /// root), named, because Debian's rpm looks in the home directory otherwise.
    var rootArguments: [String] {
        guard let root else { return [] }
        return ["--root", root, "--dbpath", "/var/lib/rpm"]
    }

    /// Every installed version of each of `names`, by `name.arch` (`[epoch:]version-release`,
    /// the epoch only when it is not 0, as dnf says it); a name not installed is absent. `nil`
    /// when rpm could not read the database.
    func installed(_ names: Set<String>) -> [String: [String]]? {
        guard !names.isEmpty else { return [:] }
        let format = "%{NAME}.%{ARCH} %|EPOCH?{%{EPOCH}:}:{}|%{VERSION}-%{RELEASE}\\n"
        let result = SystemCommand.run([rpm] + rootArguments + ["-q", "--qf", format] + names.sorted())
        // rpm exits with the count of names not installed (each said on stdout as `package P is
        // not installed`); a database it cannot open is an `error:` on stderr.
        guard !result.failedToStart, !result.stderr.contains("error:") else { return nil }
        var versions: [String: [String]] = [:]
        for line in result.stdout.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, !line.hasPrefix("package ") else { continue }
            versions[String(fields[0]), default: []].append(String(fields[1]))
        }
        return versions
    }
}
