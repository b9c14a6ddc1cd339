/// One installer process that runs several jobs (rule 27: Ansible, one job per host; any
/// program speaking the driver protocol). It declares each job's plan before the job's first
/// update starts; the queue shows the jobs as they are declared, starts each when the driver
/// starts its first update, and counts the whole session once against its concurrency.
public protocol SessionDriver: Sendable {
    /// Starts the process and returns at once. A process that cannot be started is not an
    /// error here: the handle's `outcome` is `.failedToStart(reason)`.
    ///
    /// The driver calls `reporter` in order, never concurrently, and never after `outcome` has
    /// returned.
    func start(reporter: any SessionReporter) -> any RunningSession
}

/// Receives what a session driver says. Implemented by the engine.
public protocol SessionReporter: Sendable {
    func report(_ report: SessionReport)
}

/// One thing a session driver said, about a job it declared (by its own key for the job).
public enum SessionReport: Sendable {
    /// A new job and its updates, before any of them starts (rule 22). A second plan with a
    /// key already declared is a protocol error: ignored.
    case plan(job: String, name: String, operation: UpdateOperation, updates: [Update])
    /// Something about an update of a declared job, by its index in the job's plan; the first
    /// `updateStarted` of a job begins the job (rule 27).
    case job(String, DriverReport)
    /// Nothing more runs in this job: its updates that never started end `aborted` (not
    /// started) with `reason` ("host unreachable", "stopped"). A job that never began fails,
    /// unless `notReached`: the driver never came to it, and nothing of it failed.
    case jobEnded(String, reason: String, notReached: Bool = false)
}

/// A handle on a running session driver.
public protocol RunningSession: Sendable {
    /// Asks the driver to stop job `job` at its next safe point (rule 24: the running update
    /// finishes, nothing more starts in that job). Returns at once.
    func stop(job: String)
    /// Asks the driver to stop every job at its next safe point, also jobs not declared yet.
    func stopAll()
    /// Stops the process now (rule 25). Returns at once.
    func kill()
    /// Waits until the process is gone and every report has been made.
    var outcome: UpdateRunOutcome { get async }
    /// What the driver's process printed last (stdout and stderr), oldest first: why it ended,
    /// when it ended before declaring any job.
    var recentOutput: [String] { get }
    /// How many of its lines were not the protocol it must speak, with the first problem
    /// (`2 lines were not driver protocol 1; the first: …`); `nil` when none was. `nil` by default.
    var protocolErrorSummary: String? { get }
}

extension RunningSession {
    public var protocolErrorSummary: String? { nil }
}
