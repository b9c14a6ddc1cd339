import InstallEngine
import InstallHistory
import Synchronization

/// The run slots jobs share with their keepers (rule 33), by job name, for the history's
/// recorder (`EngineHost`'s `runSlots`): a session's own jobs register before they are queued,
/// and so does an undo queued later (`UndoQueuing`). A name registered again replaces the
/// slot before it (an undo of the same run asked for again once the first one ended); a retry,
/// which keeps its job's name, shares its job's run.
final class JobRunSlots: Sendable {
    private let slots: Mutex<[String: JobRunSlot]>

    /// The slots of `jobs` that have one.
    init(_ jobs: [RunnableJob] = []) {
        slots = Mutex(Dictionary(jobs.compactMap { job in job.runSlot.map { (job.name, $0) } }, uniquingKeysWith: { first, _ in first }))
    }

    func register(_ slot: JobRunSlot, forJobNamed name: String) {
        slots.withLock { $0[name] = slot }
    }

    /// The slot of the job `descriptor` describes; `nil` lets the recorder reserve its run.
    func slot(for descriptor: JobDescriptor) -> JobRunSlot? {
        slots.withLock { $0[descriptor.name] }
    }
}
