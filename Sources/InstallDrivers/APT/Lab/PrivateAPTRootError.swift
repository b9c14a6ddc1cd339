import TextBasics
/// Why a private apt root could not be made or filled: a tool missing, a file not writable, or
/// a command that failed. Its description is one line, fit for "skipping …" on stderr.
public struct PrivateAPTRootError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, one line, without a trailing period.
    public var message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }

    /// A command (`what`: `dpkg-deb --build demo-foo`) that exited otherwise than 0: its status
    /// and the first line it printed on stderr (or stdout), so the line stays short.
    static func failed(_ what: String, _ result: SystemCommand) -> PrivateAPTRootError {
        let said = (result.stderr + "\n" + result.stdout).split(separator: "\n")
            .map { $0.trimmingSpaces }.first { !$0.isEmpty }
        let status = result.failedToStart ? "could not start" : "exited with status \(result.status)"
        return PrivateAPTRootError("\(what) \(status)\(said.map { ": " + $0 } ?? "")")
    }
}
