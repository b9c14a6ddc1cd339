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
    /// Calls `handler` once with the outcome, when `outcome` would return, on whatever thread
    /// ends the process, or at once when it has ended: `handler` must be quick. The default
    /// awaits `outcome` on a task on the engine's pool.
    func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void)
    /// What the driver's process printed last (stdout and stderr), oldest first: why it ended,
    /// when it ended before declaring any job.
    var recentOutput: [String] { get }
    /// How many of its lines were not the protocol it must speak, with the first problem
    /// (`2 lines were not driver protocol 1; the first: …`); `nil` when none was. `nil` by default.
    var protocolErrorSummary: String? { get }
}

extension RunningSession {
    public var protocolErrorSummary: String? { nil }

    public func whenEnded(_ handler: @escaping @Sendable (UpdateRunOutcome) -> Void) {
        Task.detached(executorPreference: EngineTaskExecutor.shared) { handler(await outcome) }
    }
}
