/// What a `QueueMachine` asks its runner (`JobQueue`) to do after an input.
public enum QueueAction: Sendable, Hashable {
    /// Announce this event to subscribers, after every event announced before it.
    case publish(EngineEvent.Kind)
    /// Begin `job` on installer `slot` (announce `jobStarted` first). If the installer refuses,
    /// answer with `beginRefused`.
    case begin(JobDescriptor, slot: Int)
    /// Ask the running job `job` to abort (rules 10–12).
    case abortRunning(job: Int, force: Bool)
    /// Answer `slotFreed(_:)` once every event published so far has been delivered.
    case freeSlotAfterDelivery(Int)
    /// Start driver session `session` on `slot` (rule 27).
    case beginSession(Int, slot: Int)
    /// Begin a job its driver session started (no slot of its own; announce `jobStarted` first).
    case beginDriven(JobDescriptor)
    /// Begin an observed job (rule 28) beside the slots, on an installer of its own (announce
    /// `jobStarted` first).
    case beginObserved(JobDescriptor)
    /// Tell session `session` not to run job `job` (aborted before its driver started it).
    case stopDriven(job: Int, session: Int, force: Bool)
    /// Tell session `session` to stop (every job, also those it has not declared yet).
    case stopSession(Int, force: Bool)
}
