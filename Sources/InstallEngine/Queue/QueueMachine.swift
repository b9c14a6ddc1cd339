/// The rules of the job queue (ours, ENGINE-SEMANTICS.md "JobQueue") as a value: jobs get
/// numbers in submission order and start in that order, `slots` at a time; a queued job that is
/// aborted completes at once with every update aborted (rule 13); a completed job can only be
/// cleaned up. Like `JobMachine`, it does no I/O and returns the actions its runner performs.
public struct QueueMachine: Sendable {
    /// Where a job is, as the queue sees it.
    public enum EntryPhase: Sendable, Hashable {
        /// Held until `confirm` (its descriptor `awaitsConfirmation`); never started before.
        case awaitingConfirmation
        case queued
        case running(slot: Int)
        /// Completed without running (aborted while queued, or refused by its installer); its
        /// completion events are on their way to subscribers.
        case completing
        /// Its `jobCompleted` event has been delivered.
        case completed
    }

    struct Entry: Sendable {
        var descriptor: JobDescriptor
        var phase: EntryPhase
    }

    private(set) var entries: [Int: Entry] = [:]
    /// Installer slots free to take a job, lowest first.
    private var idleSlots: [Int]
    private var nextJobID = 1

    /// - Parameter slots: how many jobs may run at once (at least 1).
    public init(slots: Int) {
        idleSlots = Array(0..<max(1, slots))
    }

    /// The descriptor of job `id`, while it is in the queue.
    public func descriptor(of id: Int) -> JobDescriptor? { entries[id]?.descriptor }

    /// Where job `id` is; `nil` once it was cleaned up (or never existed).
    public func phase(of id: Int) -> EntryPhase? { entries[id]?.phase }

    /// True when every job in the queue has completed and been delivered.
    public var isIdle: Bool { entries.values.allSatisfy { $0.phase == .completed } }

    // MARK: - Inputs

    /// Numbers a job and queues it. Call `startQueued()` afterwards to start what can start.
    public mutating func submit(
        name: String, operation: UpdateOperation, updates: [Update], stopOnFailure: Bool, awaitsConfirmation: Bool = false,
        runByDriver: Bool = false
    ) -> (JobDescriptor, [QueueAction]) {
        let descriptor = JobDescriptor(
            id: nextJobID, name: name, operation: operation, updates: updates, stopOnFailure: stopOnFailure,
            awaitsConfirmation: awaitsConfirmation, runByDriver: runByDriver)
        nextJobID += 1
        entries[descriptor.id] = Entry(descriptor: descriptor, phase: awaitsConfirmation ? .awaitingConfirmation : .queued)
        return (descriptor, [.publish(.jobQueued(descriptor))])
    }

    /// Begins queued jobs, in order, on free slots.
    public mutating func startQueued() -> [QueueAction] {
        var actions: [QueueAction] = []
        let queued = entries.values.filter { $0.phase == .queued }.map(\.descriptor).sorted { $0.id < $1.id }
        for descriptor in queued {
            guard !idleSlots.isEmpty else { break }
            let slot = idleSlots.removeFirst()
            entries[descriptor.id]?.phase = .running(slot: slot)
            actions.append(.begin(descriptor, slot: slot))
        }
        return actions
    }

    /// Job `id` may start: one awaiting confirmation joins the queue in its place (job numbers
    /// keep the order). Confirming a job that needs none, or again, changes nothing.
    /// - Throws: `unknownJob`, or `alreadyCompleted`.
    public mutating func confirm(_ id: Int) throws(JobCommandError) -> [QueueAction] {
        guard let entry = entries[id] else { throw .unknownJob(id) }
        switch entry.phase {
        case .completed, .completing: throw .alreadyCompleted(id)
        case .queued, .running: return []
        case .awaitingConfirmation:
            entries[id]?.phase = .queued
            return startQueued()
        }
    }

    /// The installer refused job `id` although its slot was free and its updates validated:
    /// it fails visibly instead of hanging in the queue.
    public mutating func beginRefused(_ id: Int, error: InstallerError) -> [QueueAction] {
        guard let entry = entries[id], case .running(let slot) = entry.phase else { return [] }
        entries[id]?.phase = .completing
        let failed = UpdateInstallationResult(resultCode: .failed, hResult: error.hResult, reason: error.description)
        return completeWithoutRunning(entry.descriptor, every: failed, abortRequested: false)
            + [.freeSlotAfterDelivery(slot)]
    }

    /// Aborts job `id`: a queued one completes at once with every update aborted (rule 13); a
    /// running one is asked to abort.
    /// - Throws: `unknownJob`, or `alreadyCompleted` (the abort is a no-op then).
    public mutating func abort(_ id: Int, force: Bool) throws(JobCommandError) -> [QueueAction] {
        guard let entry = entries[id] else { throw .unknownJob(id) }
        switch entry.phase {
        case .completed, .completing:
            throw .alreadyCompleted(id)
        case .running:
            return [.abortRunning(job: id, force: force)]
        case .queued, .awaitingConfirmation:
            entries[id]?.phase = .completing
            let aborted = UpdateInstallationResult(
                resultCode: .aborted, hResult: .callCancelled, reason: "not started: the job was aborted while queued")
            return [.publish(.jobAbortRequested(job: id, force: force))]
                + completeWithoutRunning(entry.descriptor, every: aborted, abortRequested: true)
        }
    }

    /// Aborts every job that has not completed: queued ones first, so none of them starts.
    public mutating func abortAll(force: Bool) -> [QueueAction] {
        let open = entries.values.filter { $0.phase != .completed && $0.phase != .completing }
        let waiting: Set<EntryPhase> = [.queued, .awaitingConfirmation]
        let queued = open.filter { waiting.contains($0.phase) }.map(\.descriptor.id).sorted()
        let running = open.filter { !waiting.contains($0.phase) }.map(\.descriptor.id).sorted()
        return (queued + running).flatMap { id in (try? abort(id, force: force)) ?? [] }
    }

    /// Job `id`'s `jobCompleted` event has been delivered.
    public mutating func completionDelivered(_ id: Int) {
        guard entries[id] != nil else { return }
        entries[id]?.phase = .completed
    }

    /// Installer `slot` is free again; queued jobs may start.
    public mutating func slotFreed(_ slot: Int) -> [QueueAction] {
        if !idleSlots.contains(slot) {
            idleSlots.append(slot)
            idleSlots.sort()
        }
        return startQueued()
    }

    /// Removes completed job `id` (clean-up). Returns whether it was there.
    public mutating func remove(_ id: Int) -> Bool {
        entries.removeValue(forKey: id) != nil
    }

    private func completeWithoutRunning(
        _ descriptor: JobDescriptor, every result: UpdateInstallationResult, abortRequested: Bool
    ) -> [QueueAction] {
        var actions: [QueueAction] = descriptor.updates.enumerated().map { index, update in
            .publish(.updateCompleted(job: descriptor.id, index: index, updateID: update.id, result: result))
        }
        let combined = InstallationResult.combining(
            Array(repeating: result, count: descriptor.updates.count), abortRequested: abortRequested)
        actions.append(.publish(.jobCompleted(job: descriptor.id, result: combined)))
        return actions
    }
}
