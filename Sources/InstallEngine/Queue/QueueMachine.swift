/// The rules of the job queue (ours, Documentation/ENGINE-SEMANTICS.md "JobQueue") as a value: jobs get
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
        /// Declared by a driver session; starts when the driver starts its first update (rule 27).
        case awaitingDriver(session: Int)
        /// Running under its session, whose slot it shares.
        case drivenRunning(session: Int)
        /// Another program's transaction (rule 28), running from its submission: it holds no
        /// slot, so it never waits for one nor keeps installtop's own jobs from theirs.
        case observedRunning
        /// Completed without running (aborted while queued, or refused by its installer); its
        /// completion events are on their way to subscribers.
        case completing
        /// Its `jobCompleted` event has been delivered.
        case completed
        /// Declined while awaiting confirmation (the operator said no to its plan): it never
        /// ran and has no results; it leaves the queue once its `jobCleanedUp` is delivered.
        case declined
    }

    struct Entry: Sendable {
        var descriptor: JobDescriptor
        var phase: EntryPhase
    }

    private(set) var entries: [Int: Entry] = [:]
    /// Installer slots free to take a job, lowest first.
    private var idleSlots: [Int]
    private var nextJobID = 1
    /// Driver sessions (rule 27: one process, many jobs, one slot): waiting for a slot (`nil`)
    /// or running on one. `order` places a waiting session among queued jobs: it goes before
    /// the jobs submitted after it.
    private var sessions: [Int: (order: Double, slot: Int?)] = [:]
    private var nextSessionID = 1

    /// - Parameter slots: how many jobs may run at once (at least 1).
    public init(slots: Int) {
        idleSlots = Array(0..<max(1, slots))
    }

    /// The descriptor of job `id`, while it is in the queue.
    public func descriptor(of id: Int) -> JobDescriptor? { entries[id]?.descriptor }

    /// Where job `id` is; `nil` once it was cleaned up (or never existed).
    public func phase(of id: Int) -> EntryPhase? { entries[id]?.phase }

    /// True when every job in the queue has completed and been delivered and no driver
    /// session runs or waits.
    public var isIdle: Bool { sessions.isEmpty && entries.values.allSatisfy { $0.phase == .completed } }

    /// The session job `id` was declared by, while it has not completed.
    public func session(of id: Int) -> Int? {
        switch entries[id]?.phase {
        case .awaitingDriver(let session)?, .drivenRunning(let session)?: return session
        default: return nil
        }
    }

    // MARK: - Inputs

    /// Numbers a job and queues it. Call `startQueued()` afterwards to start what can start.
    public mutating func submit(
        name: String, operation: UpdateOperation, updates: [Update], stopOnFailure: Bool, awaitsConfirmation: Bool = false,
        runByDriver: Bool = false, observedBy: ObservedInitiator? = nil, undoOf: Int? = nil, stopNote: JobStopNote? = nil,
        packageTool: String? = nil
    ) -> (JobDescriptor, [QueueAction]) {
        let descriptor = JobDescriptor(
            id: nextJobID, name: name, operation: operation, updates: updates, stopOnFailure: stopOnFailure,
            awaitsConfirmation: awaitsConfirmation, runByDriver: runByDriver, observedBy: observedBy, undoOf: undoOf,
            stopNote: stopNote, packageTool: packageTool)
        nextJobID += 1
        if observedBy != nil {
            // It is already running, whatever the queue holds: it begins at once, beside the slots.
            entries[descriptor.id] = Entry(descriptor: descriptor, phase: .observedRunning)
            return (descriptor, [.publish(.jobQueued(descriptor)), .beginObserved(descriptor)])
        }
        entries[descriptor.id] = Entry(descriptor: descriptor, phase: awaitsConfirmation ? .awaitingConfirmation : .queued)
        return (descriptor, [.publish(.jobQueued(descriptor))])
    }

    /// Begins queued jobs and waiting sessions, in order, on free slots.
    public mutating func startQueued() -> [QueueAction] {
        /// What waits for a slot: a queued job, or a driver session (rule 27).
        enum Waiting {
            case job(JobDescriptor)
            case session(Int)
        }
        let jobs = entries.values.filter { $0.phase == .queued }.map { (order: Double($0.descriptor.id), what: Waiting.job($0.descriptor)) }
        let waitingSessions = sessions.filter { $0.value.slot == nil }.map { (order: $0.value.order, what: Waiting.session($0.key)) }
        var actions: [QueueAction] = []
        for (_, what) in (jobs + waitingSessions).sorted(by: { $0.order < $1.order }) {
            guard !idleSlots.isEmpty else { break }
            let slot = idleSlots.removeFirst()
            switch what {
            case .job(let descriptor):
                entries[descriptor.id]?.phase = .running(slot: slot)
                actions.append(.begin(descriptor, slot: slot))
            case .session(let id):
                sessions[id]?.slot = slot
                actions.append(.beginSession(id, slot: slot))
            }
        }
        return actions
    }

    // MARK: - Driver sessions (rule 27)

    /// Queues a driver session; it takes one slot however many jobs it declares. Call
    /// `startQueued()` afterwards.
    public mutating func submitSession() -> Int {
        let id = nextSessionID
        nextSessionID += 1
        sessions[id] = (order: Double(nextJobID) - 0.5, slot: nil)
        return id
    }

    /// Numbers a job that session `session` declared; it waits for the driver (`beginDriven`).
    public mutating func submitDriven(
        name: String, operation: UpdateOperation, updates: [Update], session: Int
    ) -> (JobDescriptor, [QueueAction]) {
        let descriptor = JobDescriptor(
            id: nextJobID, name: name, operation: operation, updates: updates, stopOnFailure: false, runByDriver: true,
            declaredByDriver: true)
        nextJobID += 1
        entries[descriptor.id] = Entry(descriptor: descriptor, phase: .awaitingDriver(session: session))
        return (descriptor, [.publish(.jobQueued(descriptor))])
    }

    /// The driver started job `id`'s first update: the job begins, on its session's slot. Does
    /// nothing for a job that is not waiting for its driver (already begun, aborted).
    public mutating func beginDriven(_ id: Int) -> [QueueAction] {
        guard let entry = entries[id], case .awaitingDriver(let session) = entry.phase else { return [] }
        entries[id]?.phase = .drivenRunning(session: session)
        return [.beginDriven(entry.descriptor)]
    }

    /// Job `id` ended before the driver started any of its updates (its host was unreachable,
    /// or the driver ended): it completes with every update given `result`.
    public mutating func endUndriven(_ id: Int, every result: UpdateInstallationResult, abortRequested: Bool) -> [QueueAction] {
        guard let entry = entries[id], case .awaitingDriver = entry.phase else { return [] }
        entries[id]?.phase = .completing
        return completeWithoutRunning(entry.descriptor, every: result, abortRequested: abortRequested)
    }

    /// Session `id`'s process is gone and its jobs have their results: its slot is free.
    public mutating func sessionEnded(_ id: Int) -> [QueueAction] {
        guard let session = sessions.removeValue(forKey: id) else { return [] }
        guard let slot = session.slot else { return [] }
        return slotFreed(slot)
    }

    /// Job `id` may start: one awaiting confirmation joins the queue in its place (job numbers
    /// keep the order). Confirming a job that needs none, or again, changes nothing.
    /// - Throws: `unknownJob`, or `alreadyCompleted`.
    public mutating func confirm(_ id: Int) throws(JobCommandError) -> [QueueAction] {
        guard let entry = entries[id] else { throw .unknownJob(id) }
        switch entry.phase {
        case .completed, .completing, .declined: throw .alreadyCompleted(id)
        case .queued, .running, .awaitingDriver, .drivenRunning, .observedRunning: return []
        case .awaitingConfirmation:
            entries[id]?.phase = .queued
            entries[id]?.descriptor.awaitsConfirmation = false
            // Said before its start (which may come at once): watchers stop asking about it.
            return [.publish(.jobConfirmed(job: id))] + startQueued()
        }
    }

    /// Job `id`, which awaits confirmation, is declined: it leaves the queue without running
    /// and without results (apt-get's "no": nothing happened, so nothing is recorded), by a
    /// `jobCleanedUp` event; `declineDelivered` removes it once that event is delivered.
    /// - Throws: `unknownJob`, `alreadyCompleted`, or `notAwaitingConfirmation` for a job that
    ///   needed no confirmation or has it already.
    public mutating func decline(_ id: Int) throws(JobCommandError) -> [QueueAction] {
        guard let entry = entries[id] else { throw .unknownJob(id) }
        switch entry.phase {
        case .completed, .completing: throw .alreadyCompleted(id)
        case .declined: return []
        case .queued, .running, .awaitingDriver, .drivenRunning, .observedRunning: throw .notAwaitingConfirmation(id)
        case .awaitingConfirmation:
            entries[id]?.phase = .declined
            return [.publish(.jobCleanedUp(job: id))]
        }
    }

    /// The `jobCleanedUp` of declined job `id` has been delivered: it leaves the queue. Does
    /// nothing for any other job.
    public mutating func declineDelivered(_ id: Int) {
        if entries[id]?.phase == .declined { entries[id] = nil }
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
        case .completed, .completing, .declined:
            throw .alreadyCompleted(id)
        case _ where entry.descriptor.observedBy?.installtopRun != nil:
            // Another engine's job: that engine stops it safely; this one only shows it.
            throw .otherEngines(id, entry.descriptor.observedBy?.installtopRun ?? InstalltopRunMarker(enginePID: 0))
        case _ where entry.descriptor.observedBy != nil:
            // Rule 29: installtop does not own the process; refused, never silently ignored.
            throw .observed(id, program: entry.descriptor.observedBy?.programName ?? "", pid: entry.descriptor.observedBy?.pid ?? 0)
        case .running, .drivenRunning, .observedRunning:
            return [.abortRunning(job: id, force: force)]
        case .awaitingDriver(let session):
            // Its driver must not start it later: the session is told to stop it.
            entries[id]?.phase = .completing
            let aborted = UpdateInstallationResult(
                resultCode: .aborted, hResult: .callCancelled, reason: "not started: the job was aborted before its driver started it")
            return [.publish(.jobAbortRequested(job: id, force: force)), .stopDriven(job: id, session: session, force: force)]
                + completeWithoutRunning(entry.descriptor, every: aborted, abortRequested: true)
        case .queued, .awaitingConfirmation:
            entries[id]?.phase = .completing
            let aborted = UpdateInstallationResult(
                resultCode: .aborted, hResult: .callCancelled, reason: "not started: the job was aborted while queued")
            return [.publish(.jobAbortRequested(job: id, force: force))]
                + completeWithoutRunning(entry.descriptor, every: aborted, abortRequested: true)
        }
    }

    /// Aborts every job that has not completed: queued ones first, so none of them starts;
    /// every driver session is told to stop too, for the jobs it has not declared yet.
    public mutating func abortAll(force: Bool) -> [QueueAction] {
        let open = entries.values.filter { $0.phase != .completed && $0.phase != .completing && $0.phase != .declined }
        let queued = open.filter { !$0.phase.isUnderway }.map(\.descriptor.id).sorted()
        let running = open.filter { $0.phase.isUnderway }.map(\.descriptor.id).sorted()
        let jobs = (queued + running).flatMap { id in (try? abort(id, force: force)) ?? [] }
        return jobs + sessions.keys.sorted().map { .stopSession($0, force: force) }
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

extension QueueMachine.EntryPhase {
    /// Running, or declared by a running driver: what `abortAll` asks to abort after the jobs
    /// that have not started.
    var isUnderway: Bool {
        switch self {
        case .running, .drivenRunning, .awaitingDriver, .observedRunning: return true
        case .queued, .awaitingConfirmation, .completing, .completed, .declined: return false
        }
    }
}
