#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import RestartScan
import Synchronization

/// A queue of jobs in front of `UpdateInstaller`s (ours): jobs run in order, `concurrency` at a
/// time, instead of being refused while an installer is busy. It is the engine's command
/// surface (submit, abort, clean up, retry) and its event source for every consumer.
///
/// Events reach subscribers in one global order, one at a time, on the engine's callback queue:
/// handlers must be quick (hand off to a mailbox, write a line) and must not block on the queue.
public final class JobQueue: Sendable {
    private struct State {
        /// The queue's rules; everything else here is the runner's plumbing.
        var machine: QueueMachine
        /// The installers' jobs, from their start until they are cleaned up.
        var jobs: [Int: InstallationJob] = [:]
        /// The drivers of driver jobs (rules 21–25), kept for a retry.
        var drivers: [Int: any JobDriver] = [:]
        /// Running driver sessions (rule 27), by the machine's session number.
        var sessions: [Int: DriverSession] = [:]
        /// The drivers of sessions still waiting for a slot.
        var pendingSessionDrivers: [Int: any SessionDriver] = [:]
        var nextSubscriberID: UInt64 = 0
        var subscribers: [(id: UInt64, handler: @Sendable (EngineEvent) -> Void)] = []
        /// Updated only on the callback queue, so it matches what subscribers have seen.
        var model: QueueModel
        /// Resumed after every delivered `jobCompleted` (and `jobCleanedUp`: a declined job leaves then).
        var completionWaiters: [@Sendable () -> Void] = []
    }

    private let installers: [UpdateInstaller]
    /// For the installer of each job a driver session runs (they run side by side on the
    /// session's one slot).
    private let backend: any InstallBackend
    private let configuration: EngineConfiguration
    private let restartScan: SharedRestartScan?
    private let callbackQueue = SerialWorkQueue()
    private let state: Mutex<State>

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
        let queue = callbackQueue
        self.backend = backend
        self.configuration = configuration
        restartScan = restartAdvisor.map(SharedRestartScan.init)
        installers = (0..<count).map { _ in
            UpdateInstaller(backend: backend, configuration: configuration, callbackQueue: queue)
        }
        state = Mutex(State(machine: QueueMachine(slots: count), model: QueueModel(outputCapacity: outputCapacity)))
    }

    // MARK: - Observing

    /// Registers `handler` for every event from now on. It first receives the replay of the
    /// queue as it stands (`QueueModel.replayEvents()`), then live events, with nothing lost or
    /// repeated between the two.
    @discardableResult
    public func subscribe(_ handler: @escaping @Sendable (EngineEvent) -> Void) -> EventSubscription {
        let id = state.withLock { state -> UInt64 in
            state.nextSubscriberID += 1
            return state.nextSubscriberID
        }
        callbackQueue.enqueue { [self] in
            let replay = state.withLock { $0.model.replayEvents() }
            for event in replay { handler(event) }
            state.withLock { $0.subscribers.append((id, handler)) }
        }
        return EventSubscription { [weak self] in
            self?.state.withLock { $0.subscribers.removeAll { $0.id == id } }
        }
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
        state.withLock { $0.model }
    }

    // MARK: - Commands

    /// Queues a job and starts it when an installer is free.
    /// - Parameter whenQueued: called with the job's descriptor once it has its number and
    ///   before it can start (so a log line saying who submitted it comes before "started").
    /// - Parameter driver: runs the whole job instead of one child per update (rules 21–25);
    ///   the updates then need no commands. A retry of the job uses the same driver.
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
        whenQueued: (JobDescriptor) -> Void = { _ in }
    ) throws(InstallerError) -> JobDescriptor {
        try UpdateInstaller.validate(updates, for: operation, needsCommands: driver == nil)
        var descriptor: JobDescriptor?
        let performed = state.withLock { state -> Performed in
            let (queued, actions) = state.machine.submit(
                name: name, operation: operation, updates: updates, stopOnFailure: stopOnFailure,
                awaitsConfirmation: awaitsConfirmation, runByDriver: driver != nil, observedBy: observedBy)
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

    // MARK: - Driver sessions (rule 27)

    /// Queues a driver session: one process that declares jobs as it goes (Ansible: one per
    /// host). It waits for a slot like a job and holds one slot however many jobs it runs; its
    /// jobs appear when it declares them and start when it starts their first update.
    /// `waitUntilIdle` waits for the session's process too.
    public func submitSession(_ driver: any SessionDriver) {
        let performed = state.withLock { state -> Performed in
            state.pendingSessionDrivers[state.machine.submitSession()] = driver
            return perform(state.machine.startQueued(), state: &state)
        }
        finish(performed)
    }

    /// A job session `session` declared.
    func submitDriven(
        name: String, operation: UpdateOperation, updates: [Update], session: Int, driver: SessionJobDriver
    ) -> JobDescriptor? {
        guard (try? UpdateInstaller.validate(updates, for: operation, needsCommands: false)) != nil else { return nil }
        var descriptor: JobDescriptor?
        let performed = state.withLock { state -> Performed in
            let (queued, actions) = state.machine.submitDriven(name: name, operation: operation, updates: updates, session: session)
            descriptor = queued
            state.drivers[queued.id] = driver
            return perform(actions, state: &state)
        }
        finish(performed)
        return descriptor
    }

    /// The session started job `id`'s first update.
    func beginDriven(_ id: Int) {
        let performed = state.withLock { state -> Performed in
            perform(state.machine.beginDriven(id), state: &state)
        }
        finish(performed)
    }

    /// The session ended job `id` before it began, or its process ended first: every update
    /// aborted after an abort request or when the driver never reached the job (marked so),
    /// failed otherwise.
    func endUndriven(_ id: Int, reason: String, abortRequested: Bool, notReached: Bool = false) {
        var result = abortRequested || notReached
            ? UpdateInstallationResult(resultCode: .aborted, hResult: .callCancelled, reason: reason)
            : UpdateInstallationResult(resultCode: .failed, hResult: .installerFailure, reason: reason)
        if notReached, !abortRequested { result.mark = .notReached }
        let performed = state.withLock { state -> Performed in
            perform(state.machine.endUndriven(id, every: result, abortRequested: abortRequested || notReached), state: &state)
        }
        finish(performed)
    }

    /// Session `id`'s process is gone and its jobs are settled; once their events are
    /// delivered, its slot is free.
    func sessionEnded(_ id: Int) {
        callbackQueue.enqueue { [self] in
            let performed = state.withLock { state -> Performed in
                state.sessions[id] = nil
                return perform(state.machine.sessionEnded(id), state: &state)
            }
            finish(performed)
            // Someone may wait for the queue to be idle, which the session kept it from being.
            let waiters = state.withLock { state -> [@Sendable () -> Void] in
                defer { state.completionWaiters = [] }
                return state.completionWaiters
            }
            for waiter in waiters { waiter() }
        }
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
        guard state.withLock({ $0.machine.phase(of: id) != nil }) else { throw .unknownJob(id) }
        await waitForCompletions { state in
            let phase = state.machine.phase(of: id)
            return phase == .completed || phase == nil
        }
        let removed = state.withLock { state -> (Bool, InstallationJob?) in
            state.drivers[id] = nil
            return (state.machine.remove(id), state.jobs.removeValue(forKey: id))
        }
        guard removed.0 else { return }
        // Completed and delivered: this only releases the job's callbacks.
        if let job = removed.1 { try? await job.cleanUp() }
        // It returns once subscribers (and the model) have seen the job go.
        await callbackQueue.waitUntilDelivered(publish(.jobCleanedUp(job: id)))
    }

    /// Queues the failed and aborted updates of completed job `id` as a new job.
    /// - Throws: `unknownJob`, `notCompleted`, `nothingToRetry`.
    @discardableResult
    public func retry(job id: Int) throws(JobCommandError) -> JobDescriptor {
        let (known, driver, model) = state.withLock { ($0.machine.descriptor(of: id), $0.drivers[id], $0.model.job(id)) }
        guard let descriptor = known else { throw .unknownJob(id) }
        guard let result = model?.result else { throw .notCompleted(id) }
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
        await waitForCompletions { $0.machine.isIdle }
    }

    // MARK: - Running jobs

    /// What performing the machine's actions left to do once the lock is released.
    private struct Performed {
        var aborts: [(job: InstallationJob, force: Bool)] = []
        /// Sessions given a slot, started once the lock is released (their reports take it).
        var sessionsToStart: [(session: DriverSession, driver: (any SessionDriver)?)] = []
        var sessionStops: [(session: DriverSession, job: Int?, force: Bool)] = []
    }

    private func finish(_ performed: Performed) {
        for abort in performed.aborts { abort.job.requestAbort(force: abort.force) }
        for start in performed.sessionsToStart {
            if let driver = start.driver { start.session.start(driver) }
        }
        for stop in performed.sessionStops {
            if let job = stop.job {
                stop.session.stop(queueJob: job)
            } else {
                stop.session.stopAll(force: stop.force)
            }
        }
    }

    /// Starts queued jobs, in order, on free installers.
    private func startQueuedJobs() {
        let performed = state.withLock { state -> Performed in
            perform(state.machine.startQueued(), state: &state)
        }
        finish(performed)
    }

    /// Performs the machine's actions under the lock: events are only enqueued on the callback
    /// queue there (so their order is the order of the changes) and delivered later on its
    /// thread; jobs are begun under it, so two completions racing cannot start one job twice.
    private func perform(_ actions: [QueueAction], state: inout State) -> Performed {
        var performed = Performed()
        for action in actions {
            switch action {
            case .publish(let kind):
                publish(kind)
            case .begin(let descriptor, let slot):
                publish(.jobStarted(job: descriptor.id))
                do {
                    state.jobs[descriptor.id] = try begin(descriptor, on: slot, driver: state.drivers[descriptor.id])
                } catch {
                    let more = perform(state.machine.beginRefused(descriptor.id, error: error), state: &state)
                    performed.aborts += more.aborts
                    performed.sessionsToStart += more.sessionsToStart
                    performed.sessionStops += more.sessionStops
                }
            case .abortRunning(let id, let force):
                if let job = state.jobs[id] { performed.aborts.append((job, force)) }
            case .freeSlotAfterDelivery(let slot):
                callbackQueue.enqueue { [self] in releaseInstaller(slot) }
            case .beginSession(let id, _):
                let session = DriverSession(id: id, queue: self)
                state.sessions[id] = session
                performed.sessionsToStart.append((session, state.pendingSessionDrivers.removeValue(forKey: id)))
            case .beginDriven(let descriptor), .beginObserved(let descriptor):
                publish(.jobStarted(job: descriptor.id))
                do {
                    state.jobs[descriptor.id] = try begin(descriptor, on: nil, driver: state.drivers[descriptor.id])
                } catch {
                    // A fresh installer is never busy and the updates were validated.
                    preconditionFailure("a job without a slot was refused: \(error)")
                }
            case .stopDriven(let job, let session, let force):
                if let session = state.sessions[session] { performed.sessionStops.append((session, job, force)) }
            case .stopSession(let id, let force):
                if let session = state.sessions[id] { performed.sessionStops.append((session, nil, force)) }
            }
        }
        return performed
    }

    /// Begins a job on installer `slot`, or, for a job of a driver session or an observed job
    /// (`nil`), on an installer of its own.
    private func begin(
        _ descriptor: JobDescriptor, on slot: Int?, driver: (any JobDriver)?
    ) throws(InstallerError) -> InstallationJob {
        let id = descriptor.id
        let installer = slot.map { installers[$0] }
            ?? UpdateInstaller(backend: backend, configuration: configuration, callbackQueue: callbackQueue)
        // The updates its driver adds (rule 28), by index: the descriptor has the plan's.
        let added = Mutex<[Int: Update]>([:])
        // Taken once: reading them from the descriptor copied the whole descriptor on every event.
        let plannedIDs = descriptor.updates.map(\.id)
        let onProgress: InstallationProgressChangedCallback = { [weak self] _, args in
            if case .updateAdded(let index, let update) = args.change { added.withLock { $0[index] = update } }
            self?.deliver(Self.event(for: args, of: id) { index in
                plannedIDs.indices.contains(index) ? plannedIDs[index] : added.withLock { $0[index]?.id ?? "" }
            })
        }
        let onCompleted: InstallationCompletedCallback = { [weak self] job in
            guard let self, var result = job.result else { return }
            // What the job ignored is shown with its result (job.completed, status, the monitor).
            result.ignoredLines = job.malformedChannelLines
            result.protocolErrors = job.driverProtocolErrors
            result.droppedLines = job.droppedLines
            self.jobDidComplete(id, result: result, slot: slot, scansRestarts: !descriptor.declaredByDriver)
        }
        let begin = descriptor.operation == .install ? installer.beginInstall : installer.beginUninstall
        return try begin(descriptor.updates, descriptor.name, descriptor.stopOnFailure, onProgress, onCompleted, id, driver)
    }

    /// Runs on the callback queue when a job has completed.
    private func jobDidComplete(_ id: Int, result: InstallationResult, slot: Int?, scansRestarts: Bool) {
        var result = result
        // A job of a driver session is a fleet host: this machine's scan says nothing of it.
        if let restartScan, scansRestarts, result.ranAnyUpdate {
            result.restartAdvice = restartScan.advice(forJobEndedAt: result.updateResults.compactMap(\.endedAt).max())
        }
        deliver(EngineEvent(kind: .jobCompleted(job: id, result: result)))
        if let slot { releaseInstaller(slot) }
    }

    private func releaseInstaller(_ slot: Int) {
        let performed = state.withLock { state -> Performed in
            perform(state.machine.slotFreed(slot), state: &state)
        }
        finish(performed)
    }

    /// Waits until `condition` holds, checking it again after every delivered completion.
    private func waitForCompletions(until condition: @escaping @Sendable (State) -> Bool) async {
        while true {
            let registered = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let done = state.withLock { state -> Bool in
                    if condition(state) { return true }
                    state.completionWaiters.append { continuation.resume(returning: true) }
                    return false
                }
                if done { continuation.resume(returning: false) }
            }
            if !registered { return }
        }
    }

    /// Blocks until subscribers, and `snapshot()`, have seen every event published before the
    /// call (after `submit`, the job's `jobQueued`). Events are delivered on the callback queue,
    /// not by the caller: without this, a snapshot taken just after `submit` may lack the job.
    /// Returns at once when called from a subscriber (it would wait for itself); waits as long
    /// as a subscriber takes.
    public func waitUntilDelivered() {
        guard !callbackQueue.isDeliveringOnCurrentThread else { return }
        let delivered = DispatchSemaphore(value: 0)
        callbackQueue.whenDelivered(callbackQueue.enqueue {}) { delivered.signal() }
        delivered.wait()
    }

    // MARK: - Events

    /// Queues `kind` behind everything already queued, so it keeps its place in the order.
    /// Callers may hold the state lock: the event is delivered later, on the callback queue.
    @discardableResult
    private func publish(_ kind: EngineEvent.Kind) -> UInt64 {
        let event = EngineEvent(kind: kind)
        return callbackQueue.enqueue { [self] in deliver(event) }
    }

    /// Runs on the callback queue: updates the model, then calls the subscribers.
    private func deliver(_ event: EngineEvent) {
        let subscribers = state.withLock { state in
            state.model.apply(event)
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.handler(event) }
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            switch event.kind {
            case .jobCompleted(let completion): state.machine.completionDelivered(completion.job)
            // A declined job leaves the queue only now, so that whoever waits for the queue to
            // be idle finds every subscriber has seen it go.
            case .jobCleanedUp(let cleanUp): state.machine.declineDelivered(cleanUp.job)
            default: return []
            }
            defer { state.completionWaiters = [] }
            return state.completionWaiters
        }
        for waiter in waiters { waiter() }
    }

    private static func event(for args: InstallationProgressChangedArgs, of id: Int, updateID: (Int) -> String) -> EngineEvent {
        let progress = args.progress
        switch args.change {
        case .updateStarted(let index):
            return EngineEvent(kind: .updateStarted(job: id, index: index, updateID: updateID(index)))
        case .updateAdded(let index, let update):
            return EngineEvent(kind: .updateStarted(job: id, index: index, updateID: update.id, added: update))
        case .progress(let index):
            return EngineEvent(kind: .progress(
                job: id, index: index,
                updatePercent: progress.currentUpdateIsIndeterminate ? nil : progress.currentUpdatePercentComplete,
                jobPercent: progress.percentComplete, message: progress.currentUpdateMessage, jobMessage: progress.jobMessage))
        case .output(let index, let stream, let line):
            return EngineEvent(kind: .output(job: id, index: index, stream: stream, line: line))
        case .updateCompleted(let index):
            return EngineEvent(kind: .updateCompleted(
                job: id, index: index, updateID: updateID(index), result: progress.updateResult(at: index)))
        case .abortRequested(let force):
            return EngineEvent(kind: .jobAbortRequested(job: id, force: force))
        }
    }
}
