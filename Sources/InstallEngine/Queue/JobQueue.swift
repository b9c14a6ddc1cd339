#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RestartScan
import Synchronization

/// A queue of jobs in front of `UpdateInstaller`s (ours): jobs run in order, `concurrency` at a
/// time, instead of being refused while an installer is busy. It is the engine's command
/// surface (submit, abort, clean up, retry) and its event source for every consumer.
///
/// Events reach subscribers in one global order, one at a time, on the queue's callback thread
/// (`EventHub`): handlers must be quick (hand off to a mailbox, write a line) and must not
/// block on the queue. Its commands only change the queue's machine and enqueue what follows
/// (`JobQueue+Running`); its driver sessions are in `JobQueue+Sessions`.
public final class JobQueue: Sendable {
    struct State {
        /// The queue's rules; everything else here is the runner's plumbing.
        var machine: QueueMachine
        /// The installers' jobs, from their start until they are cleaned up.
        var jobs: [Int: InstallationJob] = [:]
        /// The drivers of driver jobs (rules 21–25), kept for a retry.
        var drivers: [Int: any JobDriver] = [:]
        var sessions = SessionRegistry()
        /// Resumed after every delivered `jobCompleted` (and `jobCleanedUp`: a declined job leaves
        /// then; and a session's end).
        var completionWaiters: [@Sendable () -> Void] = []
    }

    let installers: [UpdateInstaller]
    /// For the installer of each job a driver session runs (they run side by side on the
    /// session's one slot).
    let backend: any InstallBackend
    let configuration: EngineConfiguration
    let restartScan: SharedRestartScan?
    let hub: EventHub
    let state: Mutex<State>

    /// - Parameters:
    ///   - concurrency: how many jobs run at once (at least 1).
    ///   - outputCapacity: lines of output kept per update for late subscribers.
    ///   - restartAdvisor: asked, on the callback queue, for the restart advice of each job
    ///     that ran an update, before its `jobCompleted` (rule 32); none when `nil`, and none
    ///     for the jobs of a driver session (fleet hosts: another machine). One scan that
    ///     started after a job's updates ended serves every such job (`SharedRestartScan`).
    public init(
        backend: any InstallBackend,
        concurrency: Int = 1,
        configuration: EngineConfiguration = EngineConfiguration(),
        outputCapacity: Int = 1000,
        restartAdvisor: (any RestartAdvisor)? = nil
    ) {
        let count = max(1, concurrency)
        let hub = EventHub(outputCapacity: outputCapacity)
        self.hub = hub
        self.backend = backend
        self.configuration = configuration
        restartScan = restartAdvisor.map(SharedRestartScan.init)
        installers = (0..<count).map { _ in
            UpdateInstaller(backend: backend, configuration: configuration, callbackQueue: hub.callbackQueue)
        }
        state = Mutex(State(machine: QueueMachine(slots: count)))
    }

    // MARK: - Observing

    /// Registers `handler` for every event from now on. It first receives the replay of the
    /// queue as it stands (`QueueModel.replayEvents()`), then live events, with nothing lost or
    /// repeated between the two.
    @discardableResult
    public func subscribe(_ handler: @escaping @Sendable (EngineEvent) -> Void) -> EventSubscription {
        hub.subscribe(handler)
    }

    /// The events as an async sequence (replay first, then live). The stream buffers without
    /// bound, so consume it steadily; it ends when the consuming task is cancelled.
    public func events() -> AsyncStream<EngineEvent> {
        AsyncStream { continuation in
            let subscription = subscribe { continuation.yield($0) }
            continuation.onTermination = { _ in subscription.cancel() }
        }
    }

    /// The queue as subscribers have seen it so far.
    public func snapshot() -> QueueModel {
        hub.model
    }

    /// Blocks until subscribers, and `snapshot()`, have seen every event published before the
    /// call (after `submit`, the job's `jobQueued`). Events are delivered on the callback queue,
    /// not by the caller: without this, a snapshot taken just after `submit` may lack the job.
    /// Returns at once when called from a subscriber (it would wait for itself); waits as long
    /// as a subscriber takes.
    public func waitUntilDelivered() {
        hub.waitUntilDelivered()
    }

    // MARK: - Commands

    /// Queues a job and starts it when an installer is free.
    /// - Parameter whenQueued: called with the job's descriptor once it has its number and
    ///   before it can start (so a log line saying who submitted it comes before "started").
    /// - Parameter driver: runs the whole job instead of one child per update (rules 21–25);
    ///   the updates then need no commands. A retry of the job uses the same driver.
    /// - Parameter undoOf: the history's run this job undoes (`JobDescriptor.undoOf`).
    /// - Throws: what `UpdateInstaller` would refuse (rules 1–2, a missing command); nothing is
    ///   queued then.
    @discardableResult
    public func submit(
        name: String,
        operation: UpdateOperation = .install,
        updates: [Update],
        stopOnFailure: Bool = false,
        driver: (any JobDriver)? = nil,
        awaitsConfirmation: Bool = false,
        observedBy: ObservedInitiator? = nil,
        undoOf: Int? = nil,
        whenQueued: (JobDescriptor) -> Void = { _ in }
    ) throws(InstallerError) -> JobDescriptor {
        try UpdateInstaller.validate(updates, for: operation, needsCommands: driver == nil)
        var descriptor: JobDescriptor?
        let performed = state.withLock { state -> Performed in
            let (queued, actions) = state.machine.submit(
                name: name, operation: operation, updates: updates, stopOnFailure: stopOnFailure,
                awaitsConfirmation: awaitsConfirmation, runByDriver: driver != nil, observedBy: observedBy, undoOf: undoOf,
                stopNote: driver?.stopNote, packageTool: driver?.packageTool)
            descriptor = queued
            if let driver { state.drivers[queued.id] = driver }
            return perform(actions, state: &state)
        }
        finish(performed)
        guard let descriptor else { preconditionFailure("submit always numbers the job") }
        whenQueued(descriptor)
        startQueuedJobs()
        return descriptor
    }

    /// Aborts job `id`: a queued job completes at once with every update aborted (rule 13); a
    /// running one gets `requestAbort` (rules 10–12: a second call, or `force`, kills at once).
    /// - Throws: `unknownJob`, or `alreadyCompleted` (the abort is a no-op then).
    public func abort(job id: Int, force: Bool = false) throws(JobCommandError) {
        let performed = try state.withLock { state throws(JobCommandError) -> Performed in
            perform(try state.machine.abort(id, force: force), state: &state)
        }
        finish(performed)
    }

    /// Lets job `id`, which awaits confirmation, start; see `QueueMachine.confirm`.
    /// - Throws: `unknownJob`, or `alreadyCompleted`.
    public func confirm(job id: Int) throws(JobCommandError) {
        let performed = try state.withLock { state throws(JobCommandError) -> Performed in
            perform(try state.machine.confirm(id), state: &state)
        }
        finish(performed)
    }

    /// Declines job `id`, which awaits confirmation: it leaves the queue without running and
    /// without results, by a `jobCleanedUp` event (nothing is recorded in history); see
    /// `QueueMachine.decline`. `waitUntilIdle` waits for that event's delivery.
    /// - Throws: `unknownJob`, `alreadyCompleted`, or `notAwaitingConfirmation`.
    public func decline(job id: Int) throws(JobCommandError) {
        let performed = try state.withLock { state throws(JobCommandError) -> Performed in
            perform(try state.machine.decline(id), state: &state)
        }
        finish(performed)
    }

    /// Aborts every job that has not completed: queued ones first, so none of them starts.
    public func abortAll(force: Bool = false) {
        let performed = state.withLock { state -> Performed in
            perform(state.machine.abortAll(force: force), state: &state)
        }
        finish(performed)
    }

    /// Waits for job `id` to complete, then removes it from the queue (`jobCleanedUp`); its
    /// results stay in history. Several clean-ups of one job may wait together; one removes it.
    /// - Throws: `unknownJob` when there is no such job (or it was cleaned up already).
    public func cleanUp(job id: Int) async throws(JobCommandError) {
        let refusal = await withCheckedContinuation { (continuation: CheckedContinuation<JobCommandError?, Never>) in
            cleanUp(job: id) { continuation.resume(returning: $0) }
        }
        if let refusal { throw refusal }
    }

    /// `cleanUp(job:)` without a task: `done` gets the refusal, or `nil` once the job is removed
    /// and subscribers have seen it go; on the callback queue either way.
    func cleanUp(job id: Int, then done: @escaping @Sendable (JobCommandError?) -> Void) {
        guard state.withLock({ $0.machine.phase(of: id) != nil }) else {
            hub.enqueue { done(.unknownJob(id)) }
            return
        }
        whenCompletions(satisfy: { state in
            let phase = state.machine.phase(of: id)
            return phase == .completed || phase == nil
        }) { [self] in
            let (removed, job) = state.withLock { state -> (Bool, InstallationJob?) in
                state.drivers[id] = nil
                return (state.machine.remove(id), state.jobs.removeValue(forKey: id))
            }
            guard removed else {
                hub.enqueue { done(nil) }
                return
            }
            // Completed and delivered: this only releases the job's callbacks.
            job?.releaseCallbacks()
            // Done once subscribers (and the model) have seen the job go.
            hub.callbackQueue.whenDelivered(publish(.jobCleanedUp(job: id))) { done(nil) }
        }
    }

    /// Queues the failed and aborted updates of completed job `id` as a new job.
    /// - Throws: `unknownJob`, `notCompleted`, `nothingToRetry`.
    @discardableResult
    public func retry(job id: Int) throws(JobCommandError) -> JobDescriptor {
        let (known, driver) = state.withLock { ($0.machine.descriptor(of: id), $0.drivers[id]) }
        guard let descriptor = known else { throw .unknownJob(id) }
        guard let result = hub.model.job(id)?.result else { throw .notCompleted(id) }
        let again = zip(descriptor.updates, result.updateResults)
            .filter { $0.1.resultCode == .failed || $0.1.resultCode == .aborted }
            .map(\.0)
        guard !again.isEmpty else { throw .nothingToRetry(id) }
        do {
            return try submit(
                name: "\(descriptor.name) (retry)", operation: descriptor.operation,
                updates: again, stopOnFailure: descriptor.stopOnFailure, driver: driver)
        } catch {
            // The updates passed the same validation when the job was first submitted.
            preconditionFailure("a retried job failed validation: \(error)")
        }
    }

    /// Waits until every job submitted so far has completed and subscribers have seen it.
    public func waitUntilIdle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            whenCompletions(satisfy: { $0.machine.isIdle }) { continuation.resume() }
        }
    }

    /// Calls `then` once `condition` holds: at once when it does, otherwise on the callback
    /// queue after the delivered completion (or session end) that makes it hold.
    func whenCompletions(satisfy condition: @escaping @Sendable (State) -> Bool, _ then: @escaping @Sendable () -> Void) {
        let holds = state.withLock { state -> Bool in
            if condition(state) { return true }
            state.completionWaiters.append { [self] in whenCompletions(satisfy: condition, then) }
            return false
        }
        if holds { then() }
    }
}
