#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineDaemon
import EngineWire
import InstallEngine
import Monitor

/// One host of the grouped board: its ssh child (`ssh HOST installtop bridge`) while there is
/// one, what has been read of it, the requests in flight, and when to try again after a
/// failure. Owned by `HostsEngineLink`, which changes it under its lock only; no I/O here but
/// the writes of `send`, which never wait.
struct HostConnection {
    /// What a request in flight was, to route its reply.
    enum Request {
        case command
        case durations
        /// `EngineHeartbeat`'s question: any answer is enough.
        case probe
        /// A rollout's `apt upgrade`: a refusal is the host's rollout's, not only a message.
        case upgrade
        /// The board's `pending`: the snapshot of the host's root.
        case pending
        /// The board's `h` (the history, its runs list) and `P` (a refresh job).
        case history
        case runs
        case refresh
    }

    let command: SSHCommand
    var host: String { command.host }
    /// The ssh child while the link is up or ending.
    var child: PipedChild?
    /// Splits ssh's stdout into the engine's lines; a line is at most 64 MiB (a queue's
    /// snapshot of one huge job), more is skipped.
    var lines = LineReader(maximumLength: 64 << 20)
    /// The end of what ssh wrote on stderr: its last line is why the link failed.
    var stderrTail: [UInt8] = []
    var stdoutEnded = false
    var stderrEnded = false
    /// Set when stdout ended: ssh's last words and its exit are awaited until then.
    var endingDeadline: ContinuousClock.Instant?
    /// The snapshot being read (`nil` outside one).
    var snapshot: [EngineEvent]?
    var requests: [Int: Request] = [:]
    var nextRequestID = 1
    var askedDurations: Set<String> = []
    /// The host's jobs that change its root (a driver's, an observed transaction), by its own
    /// numbers: a new pending snapshot is asked for when one completes.
    var packageJobs: Set<Int> = []
    /// When to ask for the pending snapshot again: the engine answered with one computed before
    /// a job ended, saying a newer one is coming, while no package job of the host is left
    /// whose completion would ask (its keeper had not yet seen the job end).
    var pendingAskAt: ContinuousClock.Instant?
    /// When ssh's stdout last brought a byte.
    var lastHeard = ContinuousClock.now
    /// Whether the engine still answers; `nil` until its first snapshot has ended on this link
    /// (a host that never answered is still connecting, not silent), and again once the link
    /// failed.
    var heartbeat: EngineHeartbeat?
    var retry = HostRetrySchedule()
    /// When to start ssh again; `nil` while a child runs. Starts due.
    var retryAt: ContinuousClock.Instant? = .now

    static let stderrTailLimit = 8192

    init(command: SSHCommand) {
        self.command = command
    }

    /// A new ssh child took over: everything of the last one is forgotten.
    mutating func started(_ child: PipedChild) {
        self.child = child
        lines = LineReader(maximumLength: 64 << 20)
        stderrTail = []
        stdoutEnded = false
        stderrEnded = false
        endingDeadline = nil
        snapshot = nil
        // Requests of the old link will never be answered: their ids may come again.
        requests = [:]
        askedDurations = []
        packageJobs = []
        pendingAskAt = nil
        heartbeat = nil
        retryAt = nil
    }

    /// Sends `wire` to the host's engine, remembering what its reply is for. False when it
    /// could not be sent at once: no link, or ssh is not reading (a hung host is never waited
    /// for; the operator is told and may press again).
    mutating func send(_ wire: WireCommand, as request: Request) -> Bool {
        guard let child, endingDeadline == nil, child.inputHasRoom else { return false }
        let id = nextRequestID
        nextRequestID += 1
        guard child.write(Array((wire.line(requestID: id) + "\n").utf8)) else { return false }
        requests[id] = request
        return true
    }

    /// ssh's stdout brought bytes at `instant`: the engine is alive, and a host shown silent
    /// answers again.
    mutating func heard(at instant: ContinuousClock.Instant) -> [MailboxItem] {
        lastHeard = instant
        guard heartbeat?.heard(at: instant) == true else { return [] }
        return [.monitor(.host(.answersAgain(host)))]
    }

    /// Asks the engine whether it is alive when it has been silent long enough, and says the
    /// host is silent when the question has gone unanswered (`EngineHeartbeat`); nothing before
    /// the engine's first snapshot ended, nor once the link is ending.
    mutating func checkHeartbeat(at instant: ContinuousClock.Instant) -> [MailboxItem] {
        guard var heartbeat, endingDeadline == nil else { return [] }
        defer { self.heartbeat = heartbeat }
        if heartbeat.probeIsDue(at: instant) {
            _ = send(.durations(updateIDs: []), as: .probe)
            heartbeat.asked(at: instant)
        }
        guard heartbeat.silenceIsDue(at: instant) else { return [] }
        let since = Date().addingTimeInterval(-((instant - heartbeat.lastHeard) / .seconds(1)))
        return [.monitor(.host(.silent(host, since: since)))]
    }

    /// Keeps the end of what ssh wrote on stderr.
    mutating func appendStderr(_ bytes: ArraySlice<UInt8>) {
        stderrTail.append(contentsOf: bytes)
        if stderrTail.count > Self.stderrTailLimit { stderrTail.removeFirst(stderrTail.count - Self.stderrTailLimit) }
    }

    /// Why the link ended, ssh having exited with `status`: its last stderr line (ssh's own
    /// words, or the bridge's), else what the status says.
    func failureReason(status: Int32) -> String {
        let text = String(decoding: stderrTail, as: UTF8.self)
        let last = text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .last { !$0.isEmpty }
        if let last { return last }
        if status == 0 { return "the engine closed the connection" }
        // 255 is ssh's own failure, not 128 + a signal (PipedChild's codes overlap there).
        return status > 128 && status < 255 ? "ssh was ended by signal \(status - 128)" : "ssh exited with status \(status)"
    }

    /// Handles one line of the host's engine: events are renumbered for the board (a snapshot
    /// is held until its end, then replaces what the board showed of this host); returns what
    /// to post and the update ids whose past durations to ask for.
    mutating func received(_ message: ServerMessage, numbers: inout BoardJobNumbers,
                           durations: inout [String: TimeInterval]) -> [MailboxItem] {
        switch message {
        case .event(let event):
            if snapshot != nil {
                snapshot!.append(event)
                return []
            }
            if case .jobQueued(let descriptor) = event.kind { askDurations(descriptor.updates.map(\.id)) }
            notePackageJob(event)
            return numbers.translate(event, from: host)
        case .snapshotBegin:
            snapshot = []
            return []
        case .snapshotEnd:
            var items: [MailboxItem] = [.monitor(.host(.queueReplaced(host)))]
            var ids: [String] = []
            for event in snapshot ?? [] {
                if case .jobQueued(let descriptor) = event.kind { ids += descriptor.updates.map(\.id) }
                notePackageJob(event)
                items += numbers.translate(event, from: host)
            }
            snapshot = nil
            retry.succeeded()
            heartbeat = EngineHeartbeat(heardAt: lastHeard)
            askDurations(ids)
            // What the host would upgrade: the engine's newest snapshot, once it has one.
            askPending(recompute: false)
            return items + [.monitor(.host(.queueShown(host)))]
        case .reply(let reply):
            let request = reply.requestID.flatMap { requests.removeValue(forKey: $0) }
            switch request {
            case .probe?:
                // The answer is that bytes came (`heard`), whatever it says.
                return []
            case .durations?:
                guard reply.error == nil, let received = reply.fields["durations"]?.objectValue, !received.isEmpty else { return [] }
                for (id, value) in received { durations[id] = value.doubleValue }
                return [.monitor(.historicalDurations(durations))]
            case .upgrade?:
                guard let error = reply.error else { return [] }
                return [.monitor(.host(.upgradeRefused(host, reason: error.message, upToDate: error.code == .nothingToDo)))]
            case .pending?: return answered(.pending, reply: reply)
            case .history?: return answered(.history, reply: reply)
            case .runs?: return answered(.runs, reply: reply)
            case .refresh?: return answered(.refresh, reply: reply)
            case .command?, nil:
                // A refused command (a watcher's, an unknown job): the engine's reason, with the host.
                return reply.error.map { [.commandResult("\(host): \($0.message)")] } ?? []
            }
        case .unknown:
            return []
        }
    }

    /// Asks the host's engine for its pending snapshot once it is settled (after a job that
    /// changed the root, `recompute`: one computed afresh, not the one from before the job).
    mutating func askPending(recompute: Bool) {
        _ = send(.pending(PendingRequest(recompute: recompute, wait: true)), as: .pending)
    }

    /// Asks for the pending snapshot again once `pendingAskAt` is due (not once the link ends).
    mutating func askPendingIfDue(at instant: ContinuousClock.Instant) {
        guard let at = pendingAskAt, at <= instant, endingDeadline == nil else { return }
        pendingAskAt = nil
        askPending(recompute: false)
    }

    /// Remembers the host's package jobs, and asks for a snapshot when one completes.
    private mutating func notePackageJob(_ event: EngineEvent) {
        switch event.kind {
        case .jobQueued(let descriptor) where descriptor.runByDriver || descriptor.observedBy != nil:
            packageJobs.insert(descriptor.id)
        case .jobCompleted(let completion) where packageJobs.contains(completion.job):
            packageJobs.remove(completion.job)
            // Not while a snapshot is read: the link asks once the snapshot ends.
            if snapshot == nil { askPending(recompute: true) }
        default:
            break
        }
    }

    /// The reply to the board's `pending`, `history`, `runs` or `refresh`. An engine too old
    /// for `pending`, or one that keeps no snapshot, refuses it: the host's row then shows no
    /// pending text, not an error.
    private mutating func answered(_ request: Request, reply: WireReply) -> [MailboxItem] {
        switch request {
        case .pending:
            guard reply.error == nil, let state = try? PendingState(reply: reply) else { return [] }
            // A newer snapshot is coming and no completion of this host's will ask for it: ask
            // again in a second (once a second at most, and only until it is settled).
            pendingAskAt = state.computing && packageJobs.isEmpty ? .now + .seconds(1) : nil
            guard let members = state.snapshot?.objectValue,
                  let snapshot = try? PendingSnapshotCoding.decode(WireObject(members, context: "pending.snapshot")) else { return [] }
            return [.monitor(.host(.pending(host, snapshot)))]
        case .history:
            if let error = reply.error { return [.monitor(.host(.history(host, .unavailable(error.message))))] }
            let rows = (reply.fields["entries"]?.arrayValue ?? []).compactMap(HistoryRow.init(json:))
            return [.monitor(.host(.history(host, .rows(rows))))]
        case .runs:
            if let error = reply.error { return [.monitor(.host(.jobRuns(host, .unavailable(error.message))))] }
            let runs = (reply.fields["runs"]?.arrayValue ?? []).compactMap(JobRunRow.init(json:))
            return [.monitor(.host(.jobRuns(host, .rows(runs))))]
        case .refresh:
            if let error = reply.error { return [.monitor(.host(.refreshRefused(host, reason: error.message)))] }
            // The refresh job is queued: a waiting `pending` is answered after it.
            askPending(recompute: false)
            return reply.fields["job"]?.intValue.map { [.monitor(.host(.refreshQueued(host, job: $0)))] } ?? []
        case .command, .durations, .probe, .upgrade:
            // Answered where the reply is read (`upgrade`: the rollout's refusal).
            return []
        }
    }

    private mutating func askDurations(_ ids: [String]) {
        let new = Set(ids).subtracting(askedDurations)
        guard !new.isEmpty else { return }
        askedDurations.formUnion(new)
        _ = send(.durations(updateIDs: new.sorted()), as: .durations)
    }
}
