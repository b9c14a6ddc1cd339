import InstallEngine

/// A program that speaks the driver protocol (Documentation/DRIVER-PROTOCOL.md), as a
/// manifest's `driver: {command: [...], env: {...}, workdir: .}` or `installtop drive` names it.
public struct DriverJob: Sendable, Hashable {
    /// The program and its arguments; never empty.
    public var command: [String]
    /// Set for the program on top of installtop's own environment.
    public var environment: [String: String]
    /// Where the program runs, absolute; `nil` is installtop's (or the engine's) own folder.
    public var workingDirectory: String?

    public init(command: [String], environment: [String: String] = [:], workingDirectory: String? = nil) {
        self.command = command
        self.environment = environment
        self.workingDirectory = workingDirectory
    }
}
