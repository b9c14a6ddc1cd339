/// The rpm database of a dnf job's root, read with rpm itself: what every package's verdict is
/// checked against at the end.
public struct DNFRPMDatabase: Sendable {
    /// The root (`--installroot`); `nil` for this system.
    public let root: String?
    public let rpm: String

    public init(root: String?, rpm: String = "/usr/bin/rpm") {
        self.root = root
        self.rpm = rpm
    }

    /// rpm's arguments for the root: its database where dnf's is (`/var/lib/rpm` inside the
    /// root), named, because Debian's rpm looks in the home directory otherwise.
    var rootArguments: [String] {
        guard let root else { return [] }
        return ["--root", root, "--dbpath", "/var/lib/rpm"]
    }

    /// `kept` with each kept file read back by rpm: a file whose header does not name the
    /// package and version kept (or that rpm cannot read) is not kept after all.
    func readBack(_ kept: [DNFKeptVersion]) -> [DNFKeptVersion] {
        let files = kept.compactMap(\.file)
        guard !files.isEmpty else { return kept }
        let result = SystemCommand.run([rpm] + rootArguments + ["-qp", "--nosignature", "--nodigest", "--qf", Self.format] + files)
        let read = Set(result.stdout.split(separator: "\n").map(String.init))
        return kept.map { version in
            guard let file = version.file, !read.contains("\(version.name).\(version.arch) \(version.version)") else { return version }
            var unread = version
            unread.outcome = .notKept(reason: "\(file) does not read back as \(version.name) \(version.version) (\(version.arch))")
            return unread
        }
    }

    /// A package as `name.arch [epoch:]version-release`, the epoch only when it is not 0.
    private static let format = "%{NAME}.%{ARCH} %|EPOCH?{%{EPOCH}:}:{}|%{VERSION}-%{RELEASE}\\n"

    /// Every installed version of each of `names`, by `name.arch` (`[epoch:]version-release`,
    /// the epoch only when it is not 0, as dnf says it); a name not installed is absent. `nil`
    /// when rpm could not read the database.
    public func installed(_ names: Set<String>) -> [String: [String]]? {
        guard !names.isEmpty else { return [:] }
        let result = SystemCommand.run([rpm] + rootArguments + ["-q", "--qf", Self.format] + names.sorted())
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

    /// The `name.arch` keys of `installed` (as `installed(_:)` gives it) that `name` stands for:
    /// itself when it is a key (an update id `name.arch`), else the name's of every arch.
    public static func keys(of name: String, in installed: [String: [String]]) -> [String] {
        if installed[name] != nil { return [name] }
        return installed.keys.filter { $0.hasPrefix(name + ".") && !$0.dropFirst(name.count + 1).contains(".") }.sorted()
    }

    /// The versions of `name` in `installed`, sorted, of every arch `keys(of:in:)` gives.
    public static func versions(of name: String, in installed: [String: [String]]) -> [String] {
        keys(of: name, in: installed).flatMap { installed[$0] ?? [] }.sorted()
    }

    /// Of each of `names` (installed packages), the files that keep its installed version from
    /// being rebuilt as the helper rebuilds one (`rpm -V`): a file missing, or whose size,
    /// digest or link target differs from what rpm installed; `%config` and `%ghost` files
    /// apart (a rebuild takes those as they are). A name without such files is absent. rpm
    /// runs once for them all, and once a name only when that found something, since its
    /// lines do not say their package; its dependency checks and `%verifyscript`s are skipped.
    public func unrebuildable(_ names: [String]) -> [String: [String]] {
        let arguments = [rpm] + rootArguments + ["-V", "--nodeps", "--noscripts"]
        guard !names.isEmpty, !Self.unrebuildable(verifying: SystemCommand.run(arguments + names.sorted()).stdout).isEmpty else { return [:] }
        var found: [String: [String]] = [:]
        for name in names {
            let files = Self.unrebuildable(verifying: SystemCommand.run(arguments + [name]).stdout)
            if !files.isEmpty { found[name] = files }
        }
        return found
    }

    /// What `unrebuildable` reads in `rpm -V`'s output: `PATH is missing` and `PATH differs
    /// from what rpm installed` (its size `S`, digest `5` or link `L`), in the output's order;
    /// lines of `%config` (`c`) and `%ghost` (`g`) files, changes of mode, owner or time
    /// alone, and any other line are left out.
    public static func unrebuildable(verifying output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
            guard fields.count == 2 else { return nil }
            let flags = fields[0]
            var rest = fields[1].drop { $0 == " " }
            if let marker = rest.first, marker != "/" {
                guard marker != "c", marker != "g" else { return nil }
                rest = rest.dropFirst().drop { $0 == " " }
            }
            guard rest.first == "/" else { return nil }
            if flags == "missing" { return "\(rest) is missing" }
            guard flags.count == 9, flags.allSatisfy({ "SM5DLUGTP.?".contains($0) }),
                  flags.contains(where: { "S5L".contains($0) }) else { return nil }
            return "\(rest) differs from what rpm installed"
        }
    }
}
