import EngineWire

/// How an `EngineServer` listens and what it tolerates from clients.
public struct ServerOptions: Sendable {
    /// The socket's path; its directory must be writable by this user only.
    public var socketPath: String
    /// A client this many bytes of live events behind (beyond its snapshot) is dropped, so a
    /// client that stops reading costs bounded memory and never slows the engine.
    public var backlogLimit: Int
    /// Longer command lines are skipped and answered with `lineTooLong`.
    public var maximumLineLength: Int
    /// Where the engine says what happens (connections, refusals, drops): one line each.
    public var log: @Sendable (String) -> Void
    /// The kinds submitted jobs may be of besides lists of commands (apt, Ansible …); the member
    /// of a kind not among them is not read, and such a job is refused for having no updates.
    public var kinds: JobKinds
    /// Where observed jobs come from (dpkg's hooks and log, `EngineHost.observedSources`),
    /// started with the server and stopped with it; none by default: relay messages are dropped.
    public var observed: ObservedSources

    public init(
        socketPath: String, backlogLimit: Int = 8 << 20, maximumLineLength: Int = 8 << 20,
        log: @escaping @Sendable (String) -> Void = { _ in }, kinds: JobKinds = JobKinds(), observed: ObservedSources = ObservedSources()
    ) {
        self.observed = observed
        self.socketPath = socketPath
        self.backlogLimit = backlogLimit
        self.maximumLineLength = maximumLineLength
        self.log = log
        self.kinds = kinds
    }
}
