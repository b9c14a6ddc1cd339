/// Reads `apt-cache policy P…` (run with `LC_ALL=C`, whose headings it reads):
/// ```
/// lab-app:
///   Installed: 1.0
///   Candidate: 2.0
///   Version table:
///      2.0 500 (phased 40%)
///         500 file:/srv/repo ./ Packages
///  *** 1.0 100
///         100 /var/lib/dpkg/status
/// ```
/// A package apt does not know is not printed (apt says `N: Unable to locate package` on stderr).
public enum APTPolicy {
    /// Every package of `output`, by name.
    public static func entries(from output: String) -> [String: APTPolicyEntry] {
        var entries: [String: APTPolicyEntry] = [:]
        var current: APTPolicyEntry?
        func finish() {
            if let current { entries[current.name] = current }
            current = nil
        }
        for line in output.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.first != " " {
                guard line.hasSuffix(":") else { continue }
                finish()
                current = APTPolicyEntry(name: String(line.dropLast()), installed: nil, candidate: nil, versions: [])
            } else if line.hasPrefix(installedHeading) {
                current?.installed = value(after: installedHeading, in: line)
            } else if line.hasPrefix(candidateHeading) {
                current?.candidate = value(after: candidateHeading, in: line)
            } else if let version = version(from: line) {
                current?.versions.append(version)
            }
        }
        finish()
        return entries
    }

    private static let installedHeading = "  Installed:"
    private static let candidateHeading = "  Candidate:"

    /// `  Installed: 1.0` after its heading → `1.0`; `(none)` → `nil`.
    private static func value(after heading: String, in line: Substring) -> String? {
        let value = line.dropFirst(heading.count).split(separator: " ").first.map(String.init)
        return value == "(none)" ? nil : value
    }

    /// A version line: five columns (` *** ` for the installed one, else blanks), then
    /// `VERSION PRIORITY` and perhaps `(phased N%)`. The lines under it that name where the
    /// version comes from are indented further, and give `nil`.
    private static func version(from line: Substring) -> APTPolicyEntry.Version? {
        guard line.count > 5, line.hasPrefix(" *** ") || line.hasPrefix("     ") else { return nil }
        let rest = line.dropFirst(5)
        guard rest.first != " " else { return nil }
        let words = rest.split(separator: " ")
        guard let version = words.first else { return nil }
        var phased: Int?
        if let mark = words.firstIndex(of: "(phased"), words.index(after: mark) < words.endIndex {
            phased = Int(words[words.index(after: mark)].prefix { $0.isNumber })
        }
        return APTPolicyEntry.Version(version: String(version), phasedPercentage: phased)
    }
}
