import Foundation
import Synchronization

/// A queue of jobs in front of `UpdateInstaller`s (ours): jobs run in order, `concurrency` at a
/// time, instead of being refused while an installer is busy. It is the engine's command
/// surface (submit, abort, clean up, retry) and its event source for every consumer.
///
/// Events reach subscribers in one global order, one at a time, on the engine's callback queue:
/// handlers must be quick (hand off to a mailbox, write a line) and must not block on the queue.
public final class JobQueue: Sendable {
    private enum Phase {
        case queued
        /// Completed without running (aborted while queued, or refused by its installer); its
        /// completion events are on their way to subscribers.
        case completing
        case running(InstallationJob)
        /// Its `jobCompleted` event has been delivered.
        case completed(InstallationJob?)
    }

    private struct Entry {
        var descriptor: JobDescriptor
        var phase: Phase
        /// Runs the whole job when set (rules 21–25).
        var driver: (any JobDriver)?
    }

    private struct State {
        var nextJobID = 1
        var entries: [Int: Entry] = [:]
        /// Installers free to take a job.
        var idleInstallers: [Int]
        var nextSubscriberID: UInt64 = 0
        var subscribers: [(id: UInt64, handler: @Sendable (EngineEvent) -> Void)] = []
        /// Updated only on the callback queue, so it matches what subscribers have seen.
        var model: QueueModel
        /// Resumed after every delivered `jobCompleted`.
        var completionWaiters: [@Sendable () -> Void] = []
    }

    private let installers: [UpdateInstaller]
    private let callbackQueue = CallbackQueue()
    private let state: Mutex<State>

    /// - Parameters:
    ///   - concurrency: how many jobs run at once (at least 1).
    ///   - outputCapacity: lines of output kept per update for late subscribers.
    public init(
        backend: any InstallBackend,
        concurrency: Int = 1,
        configuration: EngineConfiguration = EngineConfiguration(),
        outputCapacity: Int = 1000
    ) {
        let count = max(1, concurrency)
        let queue = callbackQueue
        installers = (0..<count).map { _ in
            UpdateInstaller(backend: backend, configuration: configuration, callbackQueue: queue)
        }
        state = Mutex(State(idleInstallers: Array(0..<count), model: QueueModel(outputCapacity: outputCapacity)))
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
        whenQueued: (JobDescriptor) -> Void = { _ in }
    ) throws(InstallerError) -> JobDescriptor {
        try UpdateInstaller.validate(updates, for: operation, needsCommands: driver == nil)
        let descriptor = state.withLock { state -> JobDescriptor in
            let descriptor = JobDescriptor(
                id: state.nextJobID, name: name, operation: operation, updates: updates, stopOnFailure: stopOnFailure)
            state.nextJobID += 1
            state.entries[descriptor.id] = Entry(descriptor: descriptor, phase: .queued, driver: driver)
            return descriptor
        }
        publish(.jobQueued(descriptor))
        whenQueued(descriptor)
        startQueuedJobs()
        return descriptor
    }

    /// Aborts job `id`: a queued job completes at once with every update aborted (rule 13); a
    /// running one gets `requestAbort` (rules 10–12: a second call, or `force`, kills at once).
    /// - Throws: `unknownJob`, or `alreadyCompleted` (the abort is a no-op then).
    public func abort(job id: Int, force: Bool = false) throws(JobCommandError) {
        enum Action { case abortQueued(JobDescriptor), abortRunning(InstallationJob) }
        let action = try state.withLock { state throws(JobCommandError) -> Action in
            guard let entry = state.entries[id] else { throw .unknownJob(id) }
            switch entry.phase {
            case .completed, .completing:
                throw .alreadyCompleted(id)
            case .running(let job):
                return .abortRunning(job)
            case .queued:
                state.entries[id]?.phase = .completing
                return .abortQueued(entry.descriptor)
            }
        }
        switch action {
        case .abortRunning(let job):
            job.requestAbort(force: force)
        case .abortQueued(let descriptor):
            publish(.jobAbortRequested(job: id, force: force))
            let aborted = UpdateInstallationResult(
                resultCode: .aborted, hResult: .callCancelled, reason: "not started: the job was aborted while queued")
            for (index, update) in descriptor.updates.enumerated() {
                publish(.updateCompleted(job: id, index: index, updateID: update.id, result: aborted))
            }
            let result = InstallationResult.combining(
                Array(repeating: aborted, count: descriptor.updates.count), abortRequested: true)
            publish(.jobCompleted(job: id, result: result))
        }
    }

    /// Aborts every job that has not completed: queued ones first, so none of them starts.
    public func abortAll(force: Bool = false) {
        let (queued, running) = state.withLock { state -> ([Int], [Int]) in
            var queued: [Int] = []
            var running: [Int] = []
            for (id, entry) in state.entries {
                switch entry.phase {
                case .queued: queued.append(id)
                case .running: running.append(id)
                case .completed, .completing: break
                }
            }
            return (queued.sorted(), running.sorted())
        }
        for id in queued + running { try? abort(job: id, force: force) }
    }

    /// Waits for job `id` to complete, then removes it from the queue (`jobCleanedUp`); its
    /// results stay in history. Several clean-ups of one job may wait together; one removes it.
    /// - Throws: `unknownJob` when there is no such job (or it was cleaned up already).
    public func cleanUp(job id: Int) async throws(JobCommandError) {
        guard state.withLock({ $0.entries[id] != nil }) else { throw .unknownJob(id) }
        await waitForCompletions { state in
            if case .completed? = state.entries[id]?.phase { return true }
            return state.entries[id] == nil
        }
        let removed = state.withLock { state -> Entry? in state.entries.removeValue(forKey: id) }
        guard let removed else { return }
        if case .completed(let job?) = removed.phase {
            // Completed and delivered: this only releases the job's callbacks.
            try? await job.cleanUp()
        }
        publish(.jobCleanedUp(job: id))
    }

    /// Queues the failed and aborted updates of completed job `id` as a new job.
    /// - Throws: `unknownJob`, `notCompleted`, `nothingToRetry`.
    @discardableResult
    public func retry(job id: Int) throws(JobCommandError) -> JobDescriptor {
        let (entry, model) = state.withLock { ($0.entries[id], $0.model.job(id)) }
        guard let entry else { throw .unknownJob(id) }
        let descriptor = entry.descriptor
        guard let result = model?.result else { throw .notCompleted(id) }
        let again = zip(descriptor.updates, result.updateResults)
            .filter { $0.1.resultCode == .failed || $0.1.resultCode == .aborted }
            .map(\.0)
        guard !again.isEmpty else { throw .nothingToRetry(id) }
        do {
            return try submit(
                name: "\(descriptor.name) (retry)", operation: descriptor.operation,
                updates: again, stopOnFailure: descriptor.stopOnFailure, driver: entry.driver)
        } catch {
            // The updates passed the same validation when the job was first submitted.
            preconditionFailure("a retried job failed validation: \(error)")
        }
    }

    /// Waits until every job submitted so far has completed and subscribers have seen it.
    public func waitUntilIdle() async {
        await waitForCompletions { state in
            state.entries.values.allSatisfy { if case .completed = $0.phase { true } else { false } }
        }
    }

    // MARK: - Running jobs

    /// Starts queued jobs, in order, on free installers. Jobs are begun under the lock, so two
    /// completions racing here cannot start one job twice; events are only appended there and
    /// delivered after the lock is released.
    private func startQueuedJobs() {
        let mustDeliver = state.withLock { state -> Bool in
            var mustDeliver = false
            let queued = state.entries.values.filter { if case .queued = $0.phase { true } else { false } }
                .map(\.descriptor).sorted { $0.id < $1.id }
            for descriptor in queued {
                guard !state.idleInstallers.isEmpty else { break }
                let installerIndex = state.idleInstallers.removeFirst()
                let driver = state.entries[descriptor.id]?.driver
                mustDeliver = start(descriptor, driver: driver, on: installerIndex, state: &state) || mustDeliver
            }
            return mustDeliver
        }
        if mustDeliver { callbackQueue.deliverPending() }
    }

    private func start(
        _ descriptor: JobDescriptor, driver: (any JobDriver)?, on installerIndex: Int, state: inout State
    ) -> Bool {
        let id = descriptor.id
        let installer = installers[installerIndex]
        var mustDeliver = appendEvent(.jobStarted(job: id))
        let onProgress: InstallationProgressChangedCallback = { [weak self] _, args in
            self?.deliver(Self.event(for: args, of: descriptor))
        }
        let onCompleted: InstallationCompletedCallback = { [weak self] job in
            guard let self, let result = job.result else { return }
            self.jobDidComplete(id, result: result, installerIndex: installerIndex)
        }
        do {
            let job = try (descriptor.operation == .install ? installer.beginInstall : installer.beginUninstall)(
                descriptor.updates, descriptor.name, descriptor.stopOnFailure, onProgress, onCompleted, id, driver)
            state.entries[id]?.phase = .running(job)
        } catch {
            // The installer was free and the updates validated at submit; if it still refuses,
            // the job fails visibly instead of hanging in the queue.
            state.entries[id]?.phase = .completing
            let failed = UpdateInstallationResult(resultCode: .failed, hResult: error.hResult, reason: error.description)
            for (index, update) in descriptor.updates.enumerated() {
                mustDeliver = appendEvent(.updateCompleted(job: id, index: index, updateID: update.id, result: failed)) || mustDeliver
            }
            let result = InstallationResult.combining(
                Array(repeating: failed, count: descriptor.updates.count), abortRequested: false)
            mustDeliver = appendEvent(.jobCompleted(job: id, result: result)) || mustDeliver
            mustDeliver = callbackQueue.append { [self] in releaseInstaller(installerIndex) }.mustDeliver || mustDeliver
        }
        return mustDeliver
    }

    /// Runs on the callback queue when a job has completed.
    private func jobDidComplete(_ id: Int, result: InstallationResult, installerIndex: Int) {
        deliver(EngineEvent(kind: .jobCompleted(job: id, result: result)))
        releaseInstaller(installerIndex)
    }

    private func releaseInstaller(_ installerIndex: Int) {
        state.withLock { state in
            state.idleInstallers.append(installerIndex)
            state.idleInstallers.sort()
        }
        startQueuedJobs()
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

    // MARK: - Events

    /// Queues `kind` behind everything already queued, so it keeps its place in the order.
    private func publish(_ kind: EngineEvent.Kind) {
        let event = EngineEvent(kind: kind)
        callbackQueue.enqueue { [self] in deliver(event) }
    }

    /// Like `publish`, for callers holding the state lock: returns whether they must call
    /// `callbackQueue.deliverPending()` after releasing it.
    private func appendEvent(_ kind: EngineEvent.Kind) -> Bool {
        let event = EngineEvent(kind: kind)
        return callbackQueue.append { [self] in deliver(event) }.mustDeliver
    }

    /// Runs on the callback queue: updates the model, then calls the subscribers.
    private func deliver(_ event: EngineEvent) {
        let subscribers = state.withLock { state in
            state.model.apply(event)
            return state.subscribers
        }
        for subscriber in subscribers { subscriber.handler(event) }
        guard case .jobCompleted(let completion) = event.kind else { return }
        let id = completion.job
        let waiters = state.withLock { state -> [@Sendable () -> Void] in
            switch state.entries[id]?.phase {
            case .running(let job)?: state.entries[id]?.phase = .completed(job)
            case .queued?, .completing?: state.entries[id]?.phase = .completed(nil)
            case .completed?, nil: break
            }
            defer { state.completionWaiters = [] }
            return state.completionWaiters
        }
        for waiter in waiters { waiter() }
    }

    private static func event(for args: InstallationProgressChangedArgs, of descriptor: JobDescriptor) -> EngineEvent {
        let id = descriptor.id
        let progress = args.progress
        switch args.change {
        case .updateStarted(let index):
            return EngineEvent(kind: .updateStarted(job: id, index: index, updateID: descriptor.updates[index].id))
        case .progress(let index):
            return EngineEvent(kind: .progress(
                job: id, index: index,
                updatePercent: progress.currentUpdateIsIndeterminate ? nil : progress.currentUpdatePercentComplete,
                jobPercent: progress.percentComplete, message: progress.currentUpdateMessage))
        case .output(let index, let stream, let line):
            return EngineEvent(kind: .output(job: id, index: index, stream: stream, line: line))
        case .updateCompleted(let index):
            return EngineEvent(kind: .updateCompleted(
                job: id, index: index, updateID: descriptor.updates[index].id, result: progress.updateResult(at: index)))
        case .abortRequested(let force):
            return EngineEvent(kind: .jobAbortRequested(job: id, force: force))
        }
    }
}
