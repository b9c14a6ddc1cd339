import InstallEngine

/// The pure half of a protocol driver's session: turns decoded driver-protocol messages into
/// the engine's `SessionReport`s, by each job's key and each update's index in its plan.
/// Which updates started or finished is the job machine's to judge (a second start or verdict
/// is counted there, on the job), not this translation's.
struct ProtocolSessionState {
    private struct Job {
        var indexOf: [String: Int]
        /// The update that started last, for output lines that name none.
        var current: Int?
        var ended = false
    }

    private var jobs: [String: Job] = [:]
    /// Lines that could not be decoded or named something outside the plans (rule 22).
    private(set) var protocolErrors = 0
    /// The job the driver spoke of last: a protocol error that names no job it declared is
    /// counted on it.
    private var lastJob: String?
    /// Protocol errors before the first job was declared: counted on that job.
    private var unattributed = 0
    /// The counts on jobs that the message being translated caused, sent after its reports.
    private var faults: [SessionReport] = []

    static let stoppingMessage = "stopping after this task (abort requested)"

    /// A line that is not the protocol (not JSON, not a message of this version): ignored, and
    /// counted on the job the driver spoke of last, or on the first job it declares.
    mutating func misread() -> [SessionReport] {
        fault(nil)
        return takeFaults()
    }

    /// What one message means for the engine, and the protocol errors it makes, each counted
    /// on a job (`DriverReport.protocolError`).
    mutating func receive(_ message: DriverMessage) -> [SessionReport] {
        let reports = translate(message)
        return reports + takeFaults()
    }

    private mutating func translate(_ message: DriverMessage) -> [SessionReport] {
        switch message {
        case .hello:
            return []
        case .plan(let plan):
            guard jobs[plan.job] == nil else {
                fault(plan.job)
                return []
            }
            jobs[plan.job] = Job(indexOf: Dictionary(plan.updates.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first }))
            lastJob = plan.job
            let updates = plan.updates.map { Update(id: $0.id, title: $0.title, rebootBehavior: .may, sizeInBytes: $0.size) }
            // What went wrong before any job existed counts on the first one.
            let earlier = Array(repeating: SessionReport.job(plan.job, .protocolError), count: unattributed)
            unattributed = 0
            return [.plan(job: plan.job, name: plan.name, operation: plan.operation, updates: updates)] + earlier
        case .started(let reference):
            guard let index = index(of: reference) else { return [] }
            jobs[reference.job]?.current = index
            return [.job(reference.job, .updateStarted(index: index))]
        case .progress(let progress):
            guard let index = index(of: progress.reference) else { return [] }
            return progress.reports(about: index).map { .job(progress.reference.job, $0) }
        case .output(let output):
            guard let job = jobs[output.job] else {
                fault(nil)
                return []
            }
            lastJob = output.job
            let index = output.update.flatMap { job.indexOf[$0] } ?? job.current
            guard let index else { return [] }
            return [.job(output.job, .update(index: index, .output(output.stream, output.line)))]
        case .reboot(let reference):
            guard let index = index(of: reference) else { return [] }
            return [.job(reference.job, .update(index: index, .rebootRequired))]
        case .finished(let end):
            guard let index = index(of: end.reference) else { return [] }
            let key = end.reference.job
            var reports: [SessionReport] = []
            let verdict: DriverVerdict
            switch end.result {
            case .succeeded, .succeededWithErrors:
                if let mark = end.mark {
                    reports.append(.job(key, .update(index: index, .message(mark.word))))
                } else if let changed = end.changed {
                    let status = changed ? (end.check ? "would change" : "changed") : "ok"
                    reports.append(.job(key, .update(index: index, .message(status + (end.ranOn.map { " on \($0)" } ?? "")))))
                }
                verdict = DriverVerdict(resultCode: end.result == .succeeded ? .succeeded : .succeededWithErrors, reason: end.reason,
                                        mark: end.mark)
            case .skipped:
                let mark = end.mark ?? .skipped
                reports.append(.job(key, .update(index: index, .message(mark.word))))
                verdict = DriverVerdict(resultCode: .succeeded, reason: end.reason, mark: mark)
            case .failed:
                // A failure taken back (Ansible's clear_host_errors) keeps its result and says so;
                // no other mark goes with a failure.
                let mark: UpdateResultMark? = end.mark == .cleared ? .cleared : nil
                if let mark { reports.append(.job(key, .update(index: index, .message(mark.word)))) }
                verdict = DriverVerdict(resultCode: .failed, reason: end.reason ?? "failed", mark: mark)
            case .aborted:
                // A step the driver never came to (`notReached`) never started: no one aborted it.
                verdict = end.mark == .notReached
                    ? DriverVerdict(resultCode: .aborted, reason: end.reason ?? "not reached", hResult: .callCancelled, mark: .notReached)
                    : DriverVerdict(resultCode: .aborted, reason: end.reason ?? "aborted")
            }
            return reports + [.job(key, .updateFinished(index: index, verdict))]
        case .stopping(let stopping):
            let keys = stopping.job.map { [$0] } ?? Array(jobs.keys)
            var reports: [SessionReport] = []
            for key in keys.sorted() {
                guard let job = jobs[key], !job.ended else { continue }
                // The message reaches the updates in progress: the job drops it for the others.
                let indices = stopping.waitingFor.isEmpty ? Array(job.indexOf.values) : stopping.waitingFor.compactMap { job.indexOf[$0] }
                for index in indices.sorted() {
                    reports.append(.job(key, .update(index: index, .message(Self.stoppingMessage))))
                }
            }
            return reports
        case .jobEnded(let ended):
            guard jobs[ended.job] != nil, jobs[ended.job]?.ended == false else {
                fault(ended.job)
                return []
            }
            jobs[ended.job]?.ended = true
            lastJob = ended.job
            return [.jobEnded(ended.job, reason: ended.reason ?? "the driver ended it", notReached: ended.notReached)]
        }
    }

    private mutating func index(of reference: DriverUpdateReference) -> Int? {
        guard let job = jobs[reference.job], !job.ended, let index = job.indexOf[reference.update] else {
            fault(reference.job)
            return nil
        }
        lastJob = reference.job
        return index
    }

    /// Counts a protocol error on `job` when the driver declared it, else on the job it spoke
    /// of last, else on the first job it will declare.
    private mutating func fault(_ job: String?) {
        protocolErrors += 1
        if let key = [job, lastJob].lazy.compactMap({ $0 }).first(where: { jobs[$0] != nil }) {
            faults.append(.job(key, .protocolError))
        } else {
            unattributed += 1
        }
    }

    private mutating func takeFaults() -> [SessionReport] {
        defer { faults = [] }
        return faults
    }
}
