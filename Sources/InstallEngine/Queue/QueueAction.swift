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
}
