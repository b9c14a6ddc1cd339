#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import RestartScan
import Synchronization

/// Performing the queue machine's actions: beginning jobs on installers, aborting them,
/// starting and stopping driver sessions, publishing events.
extension JobQueue {
    /// What performing the machine's actions left to do once the lock is released.
    struct Performed {
        var aborts: [(job: InstallationJob, force: Bool)] = []
        /// Sessions given a slot, started once the lock is released (their reports take it).
        var sessionsToStart: [(session: DriverSession, driver: (any SessionDriver)?)] = []
        var sessionStops: [(session: DriverSession, job: Int?, force: Bool)] = []

        mutating func append(_ other: Performed) {
            aborts += other.aborts
            sessionsToStart += other.sessionsToStart
            sessionStops += other.sessionStops
        }
    }

    func finish(_ performed: Performed) {
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
    func startQueuedJobs() {
        let performed = state.withLock { state -> Performed in
            perform(state.machine.startQueued(), state: &state)
        }
        finish(performed)
    }

    /// Performs the machine's actions under the lock: events are only enqueued on the callback
    /// queue there (so their order is the order of the changes) and delivered later on its
    /// thread; jobs are begun under it, so two completions racing cannot start one job twice.
    func perform(_ actions: [QueueAction], state: inout State) -> Performed {
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
                    performed.append(perform(state.machine.beginRefused(descriptor.id, error: error), state: &state))
                }
            case .abortRunning(let id, let force):
                if let job = state.jobs[id] { performed.aborts.append((job, force)) }
            case .freeSlotAfterDelivery(let slot):
                hub.enqueue { [self] in releaseInstaller(slot) }
            case .beginSession(let id, _):
                let session = DriverSession(id: id, queue: self)
                performed.sessionsToStart.append((session, state.sessions.begin(id, session)))
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
            ?? UpdateInstaller(backend: backend, configuration: configuration, callbackQueue: hub.callbackQueue)
        let translator = JobEventTranslator(job: id, planned: descriptor.updates)
        let onProgress: InstallationProgressChangedCallback = { [weak self] _, args in
            self?.deliver(translator.event(for: args))
        }
        let onCompleted: InstallationCompletedCallback = { [weak self] job in
            guard let self, var result = job.result else { return }
            // What the job ignored is shown with its result (job.completed, status, the monitor).
            result.ignoredLines = job.malformedChannelLines
            result.protocolErrors = job.driverProtocolErrors
            result.droppedLines = job.droppedLines
            self.jobDidComplete(id, updates: descriptor.updates, result: result, slot: slot, scansRestarts: !descriptor.declaredByDriver)
        }
        let begin = descriptor.operation == .install ? installer.beginInstall : installer.beginUninstall
        return try begin(descriptor.updates, descriptor.name, descriptor.stopOnFailure, onProgress, onCompleted, id, driver)
    }

    /// Runs on the callback queue when a job of `updates` has completed.
    private func jobDidComplete(_ id: Int, updates: [Update], result: InstallationResult, slot: Int?, scansRestarts: Bool) {
        var result = result
        // A job of a driver session is a fleet host: this machine's scan says nothing of it.
        if let restartScan, scansRestarts, result.ranAnyUpdate {
            var advice = restartScan.advice(forJobEndedAt: result.updateResults.compactMap(\.endedAt).max())
            // A service its restart left stopped has no process for the scan to list; it still
            // needs the restart, so the advice (and the header's count) keeps it.
            advice.failedRestarts = RestartJobPlan.failedRestarts(of: updates, results: result.updateResults)
            result.restartAdvice = advice
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

    // MARK: - Events

    /// Queues `kind` behind everything already queued, so it keeps its place in the order.
    /// Callers may hold the state lock: the event is delivered later, on the callback queue.
    @discardableResult
    func publish(_ kind: EngineEvent.Kind) -> UInt64 {
        let event = EngineEvent(kind: kind)
        return hub.enqueue { [self] in deliver(event) }
    }

    /// Runs on the callback queue: the model and the subscribers get `event`; after a job's
    /// completion (or a declined job's leaving), whoever waits for one is told.
    private func deliver(_ event: EngineEvent) {
        hub.deliver(event)
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
}
