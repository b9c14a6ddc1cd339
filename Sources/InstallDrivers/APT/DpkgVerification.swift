/// What `dpkg --verify` says of an installed package's files against the checksums dpkg
/// recorded for it: the files that differ or are missing. Conffiles are left out (an operator's
/// edit of one is no damage). Used after an engine died mid-transaction, for the packages that
/// were in flight (issue 47: the next engine says which files differ), and by `installtop apt
/// repair RUN`, which reinstalls the packages whose files differ.
public enum DpkgVerification {
    /// The files of `package` that differ from what dpkg recorded, or are missing, in the root
    /// whose dpkg database is `administrativeDirectory`. Empty when every file agrees, when the
    /// root cannot be told from the database's path (it does not end in `/var/lib/dpkg`), and
    /// when dpkg cannot be asked: no verdict is then better than a false one.
    public static func differingFiles(of package: String, administrativeDirectory: String) -> [DpkgVerifiedFile] {
        guard let root = root(ofAdministrativeDirectory: administrativeDirectory) else { return [] }
        let result = SystemCommand.run(["/usr/bin/dpkg", "--admindir=\(administrativeDirectory)", "--instdir=\(root)",
                                        "--verify", "--verify-format=rpm", package],
                                       environment: ["LC_ALL": "C"])
        guard !result.failedToStart else { return [] }
        return parse(result.stdout)
    }

    /// `1 file differs from what dpkg recorded (/usr/share/a)`, `4 files differ from what dpkg
    /// recorded (/a, /b, /c, …)`, `1 file dpkg recorded is missing (/usr/bin/b)`, both joined
    /// by `, and `: at most three paths named of each.
    public static func phrase(_ files: [DpkgVerifiedFile]) -> String {
        func named(_ paths: [String]) -> String { paths.prefix(3).joined(separator: ", ") + (paths.count > 3 ? ", …" : "") }
        let differing = files.filter { !$0.missing }.map(\.path)
        let missing = files.filter(\.missing).map(\.path)
        var parts: [String] = []
        if !differing.isEmpty {
            parts.append((differing.count == 1 ? "1 file differs" : "\(differing.count) files differ") + " from what dpkg recorded (\(named(differing)))")
        }
        if !missing.isEmpty {
            let subject = differing.isEmpty ? (missing.count == 1 ? "1 file dpkg recorded is" : "\(missing.count) files dpkg recorded are")
                : (missing.count == 1 ? "1 is" : "\(missing.count) are")
            parts.append("\(subject) missing (\(named(missing)))")
        }
        return parts.joined(separator: ", and ")
    }

    /// The root a dpkg database belongs to: `/` for `/var/lib/dpkg`, `ROOT` for
    /// `ROOT/var/lib/dpkg`; `nil` for a database elsewhere.
    static func root(ofAdministrativeDirectory directory: String) -> String? {
        var path = directory
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard path.hasSuffix("/var/lib/dpkg") else { return nil }
        let root = String(path.dropLast("/var/lib/dpkg".count))
        return root.isEmpty ? "/" : root
    }

    /// The files in `dpkg --verify --verify-format=rpm`'s output, conffiles left out. Each line
    /// is nine check characters (or `missing` padded to nine), a blank, `c` for a conffile or a
    /// blank, a blank, then the path.
    static func parse(_ output: String) -> [DpkgVerifiedFile] {
        output.split(separator: "\n").compactMap { line -> DpkgVerifiedFile? in
            let characters = Array(line)
            guard characters.count > 12, characters[9] == " ", characters[11] == " ", characters[10] != "c" else { return nil }
            return DpkgVerifiedFile(path: String(characters[12...]), missing: String(characters[..<9]).hasPrefix("missing"))
        }
    }
}
