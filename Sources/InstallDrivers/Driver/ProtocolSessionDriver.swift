import InstallEngine

/// Runs any program that speaks the driver protocol (Documentation/DRIVER-PROTOCOL.md) as a
/// session driver (rule 27): its JSON Lines on fd 3 become jobs and their updates, stops go to
/// it as control lines on fd 4, and a forced stop interrupts it (SIGINT to its process group),
/// then kills what is left of it.
public struct ProtocolSessionDriver: SessionDriver {
    public let command: [String]
    public let environment: [String: String]
    public let workingDirectory: String?
    /// How long an interrupted driver gets to end before every process of it is killed.
    public let interruptGrace: Duration
    private let backend: ProcessBackend

    /// - Parameter backend: runs the driver; its line limit must hold a whole `plan` line (a play
    ///   of hundreds of tasks is tens of kilobytes), hence 4 MiB by default.
    public init(command: [String], environment: [String: String] = [:], workingDirectory: String? = nil,
                interruptGrace: Duration = .seconds(5), backend: ProcessBackend = ProcessBackend(maxLineBytes: 4 << 20)) {
        self.command = command
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.interruptGrace = interruptGrace
        self.backend = backend
    }

    public func start(reporter: any SessionReporter) -> any RunningSession {
        let session = RunningProtocolSession(reporter: reporter, interruptGrace: interruptGrace)
        let spec = ChildSpec(command: .argv(command), workingDirectory: workingDirectory, environment: environment, controlChannel: true)
        session.attach(backend.startChild(spec, sinks: ChildSinks(
            stdout: .text { session.outputLine($0) },
            stderr: .text { session.outputLine($0) },
            channel: .bytes { session.protocolLine($0) })))
        return session
    }
}
