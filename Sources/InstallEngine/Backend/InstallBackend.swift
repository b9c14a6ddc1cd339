/// Runs the updates of jobs. The engine decides what runs when, timeouts, abort timing and
/// results; a backend only starts one update and tells how it ended.
///
/// Two implementations: `ProcessBackend` (real child processes) and, for tests and benchmarks,
/// `ScriptedBackend` in the `InstallEngineTesting` target.
public protocol InstallBackend: Sendable {
    /// Starts one update and returns at once. A command that cannot be started is not an
    /// error here: the returned handle's `outcome` is `.failedToStart(reason)`.
    ///
    /// The backend calls `reporter` for everything the update says, from any thread but never
    /// concurrently for one update, and never after `outcome` has returned.
    func start(_ request: UpdateRunRequest, reporter: any UpdateReporter) -> any RunningUpdate
}
