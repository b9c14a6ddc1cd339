#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineDaemon
import EngineWire
import InstallEngine
import Monitor
import TextBasics

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
        /// The board's `h` (the history, its runs list) and `P` (a refresh job).
        case history
        case runs
        case refresh
        /// `K` or a fresh login: the confirmation of a commit-confirmed run.
        case keep
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
            .map { $0.trimmingSpaces }
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
            return numbers.translate(event, from: host)
        case .snapshotBegin:
            snapshot = []
            return []
        case .snapshotEnd:
            var items: [MailboxItem] = [.monitor(.host(.queueReplaced(host)))]
            var ids: [String] = []
            for event in snapshot ?? [] {
                if case .jobQueued(let descriptor) = event.kind { ids += descriptor.updates.map(\.id) }
                items += numbers.translate(event, from: host)
            }
            snapshot = nil
            retry.succeeded()
            heartbeat = EngineHeartbeat(heardAt: lastHeard)
            askDurations(ids)
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
            case .history?: return answered(.history, reply: reply)
            case .runs?: return answered(.runs, reply: reply)
            case .refresh?: return answered(.refresh, reply: reply)
            case .keep?:
                return [.commandResult("\(host): " + (reply.error?.message ?? reply.fields["said"]?.stringValue ?? "kept"))]
            case .command?, nil:
                // A refused command (a watcher's, an unknown job): the engine's reason, with the host.
                return reply.error.map { [.commandResult("\(host): \($0.message)")] } ?? []
            }
        case .pending(let state):
            // Pushed by the host's engine after its queue's snapshot and at every change of its
            // root, whoever made it: nothing is asked. An engine that keeps none sends none.
            let snapshot = state.snapshot?.objectValue.flatMap { try? PendingSnapshotCoding.decode(WireObject($0, context: "pending.snapshot")) }
            return [.monitor(.host(.pending(host, snapshot, computing: state.computing)))]
        case .armed(let runs):
            // Pushed by the host's engine after its snapshot and at each change of its runs.
            return [.monitor(.host(.armed(host, runs)))]
        case .unknown:
            return []
        }
    }

    /// The reply to the board's `history`, `runs` or `refresh`.
    private mutating func answered(_ request: Request, reply: WireReply) -> [MailboxItem] {
        switch request {
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
            // The refresh job is queued: its engine pushes the snapshot that follows it.
            return reply.fields["job"]?.intValue.map { [.monitor(.host(.refreshQueued(host, job: $0)))] } ?? []
        case .command, .durations, .probe, .upgrade, .keep:
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
