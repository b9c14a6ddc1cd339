import InstallEngine
import Monitor

/// The grouped board's job numbers: every host's engine numbers its jobs from 1, so the board
/// gives each (host, job) a number of its own, rewrites the hosts' events with it and routes
/// the monitor's commands back to the host under the host's number. A host's job keeps its
/// board number when the host's queue is shown afresh (after its link came back), so the
/// selection stays on it.
struct BoardJobNumbers: Sendable {
    private var byOrigin: [JobOrigin: Int] = [:]
    private var origins: [Int: JobOrigin] = [:]
    private var last = 0

    /// Where board job `job` lives; `nil` for a number the board never gave.
    func origin(of job: Int) -> JobOrigin? { origins[job] }

    /// The board's number for `origin`, and whether it was given just now (the monitor must
    /// learn the origin before the job's first event).
    mutating func number(for origin: JobOrigin) -> (job: Int, isNew: Bool) {
        if let known = byOrigin[origin] { return (known, false) }
        last += 1
        byOrigin[origin] = last
        origins[last] = origin
        return (last, true)
    }

    /// `event` of `host`'s engine with the board's job number, preceded by the origin's
    /// announcement when the number is new.
    mutating func translate(_ event: EngineEvent, from host: String) -> [MailboxItem] {
        let (job, isNew) = number(for: JobOrigin(host: host, job: event.job))
        var translated = event
        translated.setJob(job)
        let item = MailboxItem.engine(translated)
        return isNew ? [.monitor(.host(.jobOrigin(board: job, origin: JobOrigin(host: host, job: event.job)))), item] : [item]
    }

    /// `command` as `host`'s engine must get it: the host and the command with the host's job
    /// number; `nil` for a job the board does not know. `abortAll` has no single host: see
    /// `HostsEngineLink.perform`.
    func route(_ command: JobCommand) -> (host: String, command: JobCommand)? {
        func routed(_ job: Int, _ make: (Int) -> JobCommand) -> (host: String, command: JobCommand)? {
            origins[job].map { ($0.host, make($0.job)) }
        }
        switch command {
        case .abort(let job, let force): return routed(job) { .abort(job: $0, force: force) }
        case .cleanUp(let job): return routed(job) { .cleanUp(job: $0) }
        case .retry(let job): return routed(job) { .retry(job: $0) }
        case .confirm(let job): return routed(job) { .confirm(job: $0) }
        case .decline(let job): return routed(job) { .decline(job: $0) }
        case .abortAll: return nil
        }
    }
}
