import Synchronization
/// Driver sessions (rule 27): what a `DriverSession` asks of its queue.
extension JobQueue {
    /// Queues a driver session: one process that declares jobs as it goes (Ansible: one per
    /// host). It waits for a slot like a job and holds one slot however many jobs it runs; its
    /// jobs appear when it declares them and start when it starts their first update.
    /// `waitUntilIdle` waits for the session's process too.
    public func submitSession(_ driver: any SessionDriver) {
        let performed = state.withLock { state -> Performed in
            state.sessions.wait(state.machine.submitSession(), driver: driver)
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

    /// Calls `resume` once job `id`'s completion has been delivered to the queue's
    /// subscribers (at once for a job the queue no longer runs).
    func whenCompletionDelivered(job id: Int, _ resume: @escaping @Sendable () -> Void) {
        guard let job = state.withLock({ $0.jobs[id] }) else { return resume() }
        job.whenCompletionDelivered(resume)
    }

    /// Session `id`'s process is gone and its jobs are settled; once their events are
    /// delivered, its slot is free.
    func sessionEnded(_ id: Int) {
        hub.enqueue { [self] in
            let performed = state.withLock { state -> Performed in
                state.sessions.end(id)
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
}
