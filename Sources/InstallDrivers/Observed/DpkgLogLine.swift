import InstallEngine

/// One line of dpkg's log (`/var/log/dpkg.log`, dpkg(1) "--log"), which dpkg writes as it works
/// whoever runs it: `2026-11-23 13:11:19 status half-installed lab-app:all 1.0`,
/// `… install lab-app:all <none> 1.0`, `… configure lab-app:all 1.0 <none>`, `… startup …`.
public struct DpkgLogLine: Sendable, Hashable {
    /// `YYYY-MM-DD HH:MM:SS` in local time, as dpkg writes it: such strings sort as the times do.
    public var time: String
    /// What the line means as a status-logger line: an action begun or a state reached; `nil`
    /// for `startup` and `conffile` lines.
    public var status: DpkgStatusLine?
    /// For `install`, `upgrade`, `remove` and `purge` lines: the change with its versions.
    public var change: PackageChange?

    /// Parses a line; `nil` for one that is not dpkg's (too short, no time).
    public init?(_ line: Substring) {
        let words = line.split(separator: " ")
        guard words.count >= 3, words[0].count == 10, words[1].count == 8 else { return nil }
        time = "\(words[0]) \(words[1])"
        status = nil
        change = nil
        let rest = words.dropFirst(2).map(String.init)
        switch rest[0] {
        case "status" where rest.count >= 3:
            status = .status(package: Self.name(rest[2]), state: rest[1])
        case "install", "upgrade", "remove", "purge", "configure", "trigproc":
            guard rest.count >= 4 else { return }
            let package = Self.name(rest[1])
            status = .processing(action: rest[0], package: package)
            let old = rest[2] == "<none>" ? nil : rest[2]
            let new = rest[3] == "<none>" ? nil : rest[3]
            let architecture = rest[1].split(separator: ":").dropFirst().first.map(String.init)
            switch rest[0] {
            case "install", "upgrade":
                let action: PackageChange.Action = old == nil ? .install : old == new ? .reinstall : .upgrade
                change = PackageChange(package: package, action: action, oldVersion: old, newVersion: new, architecture: architecture)
            case "remove", "purge":
                change = PackageChange(package: package, action: rest[0] == "purge" ? .purge : .remove, oldVersion: old,
                                       architecture: architecture)
            default:
                break
            }
        default:
            break
        }
    }

    /// `lab-app:all` without its architecture.
    private static func name(_ word: String) -> String {
        String(word.split(separator: ":").first ?? Substring(word))
    }
}
