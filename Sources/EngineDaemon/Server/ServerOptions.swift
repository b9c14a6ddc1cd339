import InstallEngine

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
    /// Plans submitted package jobs (apt); without one they are refused.
    public var packageJobs: (any PackageJobPlanner)?
    /// Checks submitted fleet runs (Ansible) and gives their drivers; without one they are refused.
    public var fleetJobs: (any FleetJobPlanner)?

    public init(
        socketPath: String, backlogLimit: Int = 8 << 20, maximumLineLength: Int = 8 << 20,
        log: @escaping @Sendable (String) -> Void = { _ in }, packageJobs: (any PackageJobPlanner)? = nil,
        fleetJobs: (any FleetJobPlanner)? = nil
    ) {
        self.socketPath = socketPath
        self.backlogLimit = backlogLimit
        self.maximumLineLength = maximumLineLength
        self.log = log
        self.packageJobs = packageJobs
        self.fleetJobs = fleetJobs
    }
}
