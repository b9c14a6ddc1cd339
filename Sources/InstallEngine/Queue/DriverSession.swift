import Synchronization

/// One running session driver (rule 27) as the queue sees it: it turns the driver's plans into
/// queued jobs, begins each job when the driver starts its first update, hands the driver's
/// reports to the job, and settles every job when the driver says it ended or its process is
/// gone. Each job runs through a `SessionJobDriver`, so it has the usual driver-job lifecycle.
final class DriverSession: SessionReporter, Sendable {
    /// One job the driver declared.
    /// Which of its updates started and finished is the job machine's to know, not the session's.
    private struct DeclaredJob {
        var id: Int
        /// The job's reporter once it has begun; reports wait in `waiting` until then.
        var reporter: (any DriverReporter)?
        var waiting: [DriverReport] = []
        var begun = false
        /// Settled when the driver ends the job or its process is gone.
        var outcome = OutcomeSlot()
        var ended = false
    }

    private struct State {
        var running: (any RunningSession)?
        var jobs: [String: DeclaredJob] = [:]
        var keys: [Int: String] = [:]
        var stopRequested = false
        /// The job the driver ended whose completion is not delivered yet: the driver's later
        /// reports wait in `held` until it is, so a job the next report begins (the next
        /// serial batch's host) is seen to start after this one completed.
        var completing: Int?
        var held: [@Sendable () -> Void] = []
    }

    let id: Int
    /// Weak: the queue owns its sessions.
    private weak let queue: JobQueue?
    private let state = Mutex(State())
    /// Reports reach jobs one at a time, in the order they were made, off the driver's reading
    /// thread and with no lock held (beginning a job and reporting to it call out).
    private let delivery = SerialWorkQueue()
    /// The executor its jobs share (`ExecutorSharingDriver`): what the driver says of its jobs
    /// is performed in the order it said it.
    let jobExecutor = SerialWorkQueue()

    init(id: Int, queue: JobQueue) {
        self.id = id
        self.queue = queue
    }

    /// Starts the driver and, once its process is gone, settles what is left.
    func start(_ driver: any SessionDriver) {
        let running = driver.start(reporter: self)
        let stopNow = state.withLock { state -> Bool in
            state.running = running
            return state.stopRequested
        }
        if stopNow { running.stopAll() }
        running.whenEnded { [self] outcome in
            processEnded(outcome, lastWords: running.recentOutput, protocolErrors: running.protocolErrorSummary)
        }
    }

    // MARK: - SessionReporter

    /// Takes the driver's reports in turn on `delivery`: declaring, beginning, reporting to and
    /// ending jobs keep the order the driver said them in.
    func report(_ report: SessionReport) {
        inTurn { [self] in handle(report) }
    }

    /// Runs `work` on `delivery` after everything the driver said before it; while a job
    /// the driver ended is completing, it waits in `held`.
    private func inTurn(_ work: @escaping @Sendable () -> Void) {
        delivery.enqueue { [self] in
            let wait = state.withLock { state -> Bool in
                guard state.completing != nil else { return false }
                state.held.append(work)
                return true
            }
            if !wait { work() }
        }
    }

    /// Job `id`'s completion was delivered: runs what waited for it, in order, until one of
    /// them ends another job that must complete first. On `delivery`.
    private func completionDelivered(_ id: Int) {
        state.withLock { if $0.completing == id { $0.completing = nil } }
        while let work = state.withLock({ state -> (@Sendable () -> Void)? in
            guard state.completing == nil, !state.held.isEmpty else { return nil }
            return state.held.removeFirst()
        }) {
            work()
        }
    }

    private func handle(_ report: SessionReport) {
        switch report {
        case .plan(let key, let name, let operation, let updates):
            declare(key, name: name, operation: operation, updates: updates)
        case .job(let key, let jobReport):
            forward(jobReport, to: key)
        case .jobEnded(let key, let reason, let notReached):
            end(key, reason: reason, notReached: notReached)
        }
    }

    private func declare(_ key: String, name: String, operation: UpdateOperation, updates: [Update]) {
        guard !updates.isEmpty, let queue, state.withLock({ $0.jobs[key] == nil }) else { return }
        let driver = SessionJobDriver(session: self, key: key)
        guard let descriptor = queue.submitDriven(name: name, operation: operation, updates: updates, session: id, driver: driver) else {
            return
        }
        state.withLock { state in
            state.jobs[key] = DeclaredJob(id: descriptor.id)
            state.keys[descriptor.id] = key
        }
    }

    private func forward(_ report: DriverReport, to key: String) {
        let (reporter, begin) = state.withLock { state -> ((any DriverReporter)?, Int?) in
            guard var job = state.jobs[key], !job.ended else { return (nil, nil) }
            var begin: Int?
            switch report {
            case .updateStarted, .updateFinished:
                // Rule 27: the job begins with the first update the driver starts or ends.
                if !job.begun {
                    job.begun = true
                    begin = job.id
                }
            default:
                break
            }
            if job.reporter == nil { job.waiting.append(report) }
            state.jobs[key] = job
            return (job.reporter, begin)
        }
        if let begin { queue?.beginDriven(begin) }
        reporter?.report(report)
    }

    /// The driver ended job `key`: updates that never started are aborted as not started with
    /// `reason`; a job that never began completes at once, aborted when it was never reached
    /// (or a stop was asked), failed otherwise; a job that began and is attached completes at
    /// once too.
    private func end(_ key: String, reason: String, notReached: Bool) {
        let job = state.withLock { state -> DeclaredJob? in
            guard let job = state.jobs[key], !job.ended else { return nil }
            state.jobs[key]?.ended = true
            return job
        }
        guard let job else { return }
        guard job.begun else {
            queue?.endUndriven(job.id, reason: "not started: \(reason)", abortRequested: state.withLock { $0.stopRequested },
                               notReached: notReached)
            return
        }
        let verdict = DriverVerdict(resultCode: .aborted, reason: "not started: \(reason)", hResult: .callCancelled,
                                    mark: notReached ? .notReached : nil)
        deliver([.unstartedUpdatesFinished(verdict)], to: key)
        job.outcome.settle(.exited(0))
        // The job completes before the driver's next report is handled: a job that report
        // begins (the next serial batch's host) starts after this one ended. A job not
        // attached yet ends once it is, through the settled outcome.
        guard let reporter = job.reporter, let queue else { return }
        state.withLock { $0.completing = job.id }
        reporter.ended(.exited(0))
        queue.whenCompletionDelivered(job: job.id) { [self] in
            delivery.enqueue { [self] in completionDelivered(job.id) }
        }
    }

    /// Reports for a job that began: straight to it, or queued behind what waits for it.
    private func deliver(_ reports: [DriverReport], to key: String) {
        let reporter = state.withLock { state -> (any DriverReporter)? in
            if state.jobs[key]?.reporter == nil { state.jobs[key]?.waiting += reports }
            return state.jobs[key]?.reporter
        }
        for report in reports { reporter?.report(report) }
    }

    /// The process is gone (rule 23): jobs that never began complete as not reached (or
    /// aborted after a stop); the others end with the process's outcome. Then the slot is free.
    private func processEnded(_ outcome: UpdateRunOutcome, lastWords: [String], protocolErrors: String?) {
        // After every report the driver made, on `delivery`.
        inTurn { [self] in settle(after: outcome, lastWords: lastWords, protocolErrors: protocolErrors) }
    }

    private func settle(after outcome: UpdateRunOutcome, lastWords: [String], protocolErrors: String?) {
        // A driver that failed before it declared anything, or that spoke no protocol installtop
        // understands, would otherwise leave no trace: its failure becomes a job of its own,
        // failed with what it said last.
        let declaredNothing = state.withLock { $0.jobs.isEmpty }
        if declaredNothing, outcome != .exited(0) || protocolErrors != nil, let queue {
            let said = lastWords.suffix(5).joined(separator: " / ")
            let reason = "the driver ended before it declared any job (\(outcome.summary))" + (protocolErrors.map { "; \($0)" } ?? "")
                + (said.isEmpty ? "" : ": \(said)")
            let driver = SessionJobDriver(session: self, key: "")
            if let job = queue.submitDriven(name: "driver", operation: .install, updates: [Update(id: "driver", title: "the driver's run")],
                                            session: id, driver: driver) {
                queue.endUndriven(job.id, reason: reason, abortRequested: false)
            }
        }
        let (jobs, stopped) = state.withLock { state in
            let open = state.jobs.filter { !$0.value.ended }
            for key in open.keys { state.jobs[key]?.ended = true }
            return (open, state.stopRequested)
        }
        for (_, job) in jobs.sorted(by: { $0.value.id < $1.value.id }) {
            if job.begun {
                job.outcome.settle(outcome)
            } else {
                queue?.endUndriven(job.id, reason: stopped ? "not started: the run was stopped" : "not reached (the driver \(outcome.summary))",
                                   abortRequested: stopped)
            }
        }
        queue?.sessionEnded(id)
    }

    // MARK: - Commands

    /// Job `job` of the queue is to stop at the next safe point (or was aborted before it began).
    func stop(queueJob job: Int) {
        let (running, key) = state.withLock { ($0.running, $0.keys[job]) }
        if let key { running?.stop(job: key) }
    }

    func stopAll(force: Bool) {
        let running = state.withLock { state -> (any RunningSession)? in
            state.stopRequested = true
            return state.running
        }
        if force { running?.kill() } else { running?.stopAll() }
    }

    func kill() {
        let running = state.withLock { state -> (any RunningSession)? in
            state.stopRequested = true
            return state.running
        }
        running?.kill()
    }

    // MARK: - For SessionJobDriver

    /// Job `key` has begun: its reporter gets what waited for it, then everything after. It is
    /// attached in turn with the reports, so none made before it overtakes the waiting ones.
    /// - Returns: the job's outcome, and the ticket of its attachment: the outcome counts only
    ///   once that is delivered (`waitUntilHandled`), after the reports that waited.
    func attach(_ key: String, reporter: any DriverReporter) -> (slot: OutcomeSlot, attached: UInt64) {
        let attached = delivery.enqueue { [self] in
            let waiting = state.withLock { state -> [DriverReport] in
                state.jobs[key]?.reporter = reporter
                defer { state.jobs[key]?.waiting = [] }
                return state.jobs[key]?.waiting ?? []
            }
            for report in waiting { reporter.report(report) }
        }
        return (state.withLock { $0.jobs[key]?.outcome ?? OutcomeSlot(.exited(0)) }, attached)
    }

    /// Waits until what the session had to hand on up to `ticket` has been handed on.
    func waitUntilHandled(_ ticket: UInt64) async {
        await delivery.waitUntilDelivered(ticket)
    }

    /// Calls `handler` once what the session had to hand on up to `ticket` has been handed on.
    func whenHandled(_ ticket: UInt64, _ handler: @escaping @Sendable () -> Void) {
        delivery.whenDelivered(ticket, handler)
    }

    func stop(key: String) {
        let running = state.withLock { $0.running }
        running?.stop(job: key)
    }
}
