/// Where the tasks of drivers and sessions run (waiting for a process's outcome, a grace
/// before a kill): the engine's pool (`WorkerThreads.engine`), rather than Swift's cooperative
/// pool. Code elsewhere in the process that blocks a cooperative thread (a synchronous wait in
/// an async function: a host program, a test) would otherwise hold up every such task for as
/// long as it blocks; on two cores two such waits stopped every engine of a test run for a
/// minute and a half. The engine's own work on a job needs no task: it is an input on the job's
/// executor (`JobRunner`).
///
/// A slice of a task must not block: the pool has a few threads for the whole process. A task
/// is never enqueued twice at once, so its slices run one after another.
public final class EngineTaskExecutor: TaskExecutor {
    /// The executor every engine task prefers (`Task.detached(executorPreference:)`).
    public static let shared = EngineTaskExecutor()

    private init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        WorkerThreads.engine.submit { job.runSynchronously(on: executor) }
    }
}
