#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextBasics

/// Why an apt job cannot run: said before anything has changed, in apt's own words where apt
/// gave some (`E: Unable to locate package nosuch`). The command line exits 2 with it.
public struct APTPlanError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// apt-get or apt-config is not installed.
        case aptMissing
        /// apt refused the request: unknown package, broken dependencies, a bad configuration.
        case aptRefused
        /// Another process holds dpkg's lock.
        case locked
        /// dpkg's lock cannot be taken by this user (not root).
        case noPermission
    }

    public var kind: Kind
    /// What to tell the operator, one or more lines.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// apt's explanation of a refusal: its list of unmet dependencies out of what it printed
    /// on stdout (`The following packages have unmet dependencies:` and every line under it),
    /// then its error and warning lines (`E: …`, `W: …`) out of stderr; `otherwise` when it
    /// printed neither.
    static func aptMessage(_ stderr: String, stdout: String = "", otherwise: String) -> String {
        let lines = unmetDependencies(in: stdout) + stderr.split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        if !lines.isEmpty { return lines.joined(separator: "\n") }
        let text = stderr.trimmingWhitespace
        return text.isEmpty ? otherwise : text
    }

    /// apt's heading and the indented lines that follow it (one per package, and a line of its
    /// own for each further alternative), or nothing when apt printed no such list.
    private static func unmetDependencies(in stdout: String) -> [Substring] {
        let lines = stdout.split(separator: "\n")
        guard let heading = lines.firstIndex(where: { $0.hasPrefix("The following packages have unmet dependencies") }) else { return [] }
        let list = lines[lines.index(after: heading)...].prefix { $0.hasPrefix(" ") }
        return [lines[heading]] + list
    }
}
