import Foundation

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

    /// apt's error and warning lines (`E: …`, `W: …`) out of what it printed on stderr, or
    /// `otherwise` when it printed none.
    static func aptMessage(_ stderr: String, otherwise: String) -> String {
        let lines = stderr.split(separator: "\n").filter { $0.hasPrefix("E: ") || $0.hasPrefix("W: ") }
        if !lines.isEmpty { return lines.joined(separator: "\n") }
        let text = stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? otherwise : text
    }
}
