import Dispatch

/// Where the engine's own tasks run (starting a child or a driver, waiting for its outcome, a
/// timer, a clean-up): Dispatch threads that start whenever none is free, rather than Swift's
/// cooperative pool, which is as wide as the machine has cores. Code elsewhere in the process
/// that blocks a cooperative thread (a synchronous wait in an async function: a host program,
/// a test) would otherwise hold up every job's start and end for as long as it blocks; on
/// two cores two such waits stopped every engine of a test run for a minute and a half.
///
/// Each slice of a task runs on a serial queue of its own, which targets Dispatch's
/// overcommitting root queue; a task is never enqueued twice at once, so its slices still run
/// one after another.
public final class EngineTaskExecutor: TaskExecutor {
    /// The executor every engine task prefers (`Task.detached(executorPreference:)`).
    public static let shared = EngineTaskExecutor()

    private init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        DispatchQueue(label: "installtop.engine-task").async { job.runSynchronously(on: executor) }
    }
}
