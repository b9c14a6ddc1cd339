import EngineDaemon
import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Monitor
import Synchronization

/// An engine behind a socket (`installtop attach`): a reader thread turns the engine's lines
/// into mailbox items; commands go out as `WireCommand`s and their replies come back by id.
///
/// When the engine closes this connection while it still runs (it closes a client that read
/// nothing for a long time: a monitor stopped with Ctrl-Z, or starved), the link connects again
/// at once and the monitor shows the engine's queue afresh (`MonitorEvent.queueReplaced`), at
/// most once every `reconnectInterval`; an engine that is gone, or that closes the new
/// connection sooner, ends the monitor (`linkLost`).
public final class RemoteEngineLink: EngineLink {
    /// What a request in flight was, to route its reply.
    private enum Request {
        case command
        case history
        case runs
        case durations
        /// `K`: the confirmation of a commit-confirmed run.
        case keep
    }

    private struct State {
        var requests: [Int: Request] = [:]
        /// Median durations known so far (the monitor's event replaces them all).
        var durations: [String: TimeInterval] = [:]
        /// Update ids whose median was asked for.
        var askedDurations: Set<String> = []
        var stopped = false
        /// The connection in use: a reconnection replaces it.
        var client: EngineClient
        /// When the link last connected again.
        var reconnectedAt: ContinuousClock.Instant?
    }

    private let state: Mutex<State>
    /// The socket's path, for messages and reconnecting.
    private let path: String
    /// Snapshot events handed to the loop at a time.
    private static let snapshotChunk = 1_000
    /// The shortest time between two reconnections.
    static let reconnectInterval = Duration.seconds(10)

    public init(client: EngineClient) {
        path = client.path
        state = Mutex(State(client: client))
    }

    private var client: EngineClient { state.withLock { $0.client } }

    public var jobsOutliveMonitor: Bool { true }

    public func start(posting mailbox: Mailbox) {
        EngineThread.detach(named: "installtop-attach") { [self] in read(into: mailbox) }
    }

    public func perform(_ command: JobCommand) {
        send(.job(command), as: .command)
    }

    public func submit(name: String, updates: [Update]) {
        send(.submit([JobSubmission(name: name, operation: .install, updates: updates, stopOnFailure: false)]), as: .command)
    }

    public func loadHistory(limit: Int) {
        send(.history(limit: limit), as: .history)
    }

    public func loadJobRuns(limit: Int) {
        send(.runs(limit: limit), as: .runs)
    }

    /// The attached engine plans the undo with its history and dpkg; its job comes back as
    /// events, a refusal as the reply's error.
    public func undo(run: Int) {
        send(.undo(run: run), as: .command)
    }

    /// `K`: the engine keeps its commit-confirmed run `run`.
    public func keep(run: Int, onHost host: String?) {
        send(.confirmRun(run: run, extend: nil), as: .keep)
    }

    public func stop() {
        let client = state.withLock { state in
            state.stopped = true
            return state.client
        }
        client.close()
    }

    // MARK: - Private

    /// Sends `command`, remembering what its reply is for. A failed send shows up as the
    /// reader's end of stream, which ends the monitor.
    private func send(_ command: WireCommand, as request: Request) {
        // The id is taken inside the lock so the reply cannot arrive before it is registered.
        state.withLock { state in
            guard let id = try? state.client.send(command) else { return }
            state.requests[id] = request
        }
    }

    /// Runs on the reader thread until the engine is gone or the link is stopped.
    private func read(into mailbox: Mailbox) {
        while true {
            let ending = readSession(of: client, into: mailbox)
            if state.withLock({ $0.stopped }) { return }
            guard case .closedWhileRunning(let reason) = ending, let next = reconnect() else {
                mailbox.post(.linkLost(ending.reason))
                return
            }
            // Requests of the old connection will never be answered: their ids may come again.
            let stopped = state.withLock { state -> Bool in
                guard !state.stopped else { return true }
                state.requests = [:]
                state.askedDurations = []
                state.client = next
                return false
            }
            // Stopped while connecting again: `stop()` closed the old connection, not this one.
            if stopped {
                next.close()
                return
            }
            mailbox.post(.monitor(.queueReplaced("connected again, the queue shown afresh: \(reason)")))
        }
    }

    /// Why a connection ended.
    private enum SessionEnding {
        /// The engine closed it and still runs (it closes a client that read nothing for long).
        case closedWhileRunning(String)
        /// The engine is gone, or the connection failed.
        case gone(String)

        var reason: String {
            switch self {
            case .closedWhileRunning(let reason), .gone(let reason): return reason
            }
        }
    }

    /// A new connection to the engine, unless the last one was made less than
    /// `reconnectInterval` ago (an engine that keeps closing this monitor is not chased).
    private func reconnect() -> EngineClient? {
        let now = ContinuousClock.now
        let allowed = state.withLock { state -> Bool in
            guard state.reconnectedAt.map({ now - $0 >= Self.reconnectInterval }) ?? true else { return false }
            state.reconnectedAt = now
            return true
        }
        guard allowed else { return nil }
        return try? EngineClient(path: path)
    }

    /// Subscribes on `client` and posts what the engine says until the connection ends.
    private func readSession(of client: EngineClient, into mailbox: Mailbox) -> SessionEnding {
        // The snapshot goes to the loop in chunks, applied while the rest is read and decoded;
        // the loop draws its first frame at `.ready`, with the whole queue.
        var snapshot: [MailboxItem]?
        var snapshotUpdateIDs: [String] = []
        do throws(DaemonError) {
            try client.send(.subscribe)
            while let message = try client.nextMessage() {
                switch message {
                case .event(let event):
                    if case .jobQueued(let descriptor) = event.kind {
                        let ids = descriptor.updates.map(\.id)
                        if snapshot != nil { snapshotUpdateIDs += ids } else { askDurations(ids) }
                    }
                    if snapshot != nil {
                        snapshot!.append(.engine(event))
                        if snapshot!.count == Self.snapshotChunk {
                            mailbox.post(contentsOf: snapshot!)
                            snapshot = []
                        }
                    } else {
                        mailbox.post(.engine(event))
                    }
                case .snapshotBegin:
                    snapshot = []
                case .snapshotEnd:
                    mailbox.post(contentsOf: (snapshot ?? []) + [.ready])
                    snapshot = nil
                    askDurations(snapshotUpdateIDs)
                    snapshotUpdateIDs = []
                case .reply(let reply):
                    handle(reply, mailbox: mailbox)
                case .armed(let runs):
                    mailbox.post(.monitor(.armed(runs)))
                case .pending, .unknown:
                    break
                }
            }
            if !state.withLock({ $0.stopped }), Self.engineAnswers(on: path) {
                // The engine runs on and answers: it closed this connection itself, which it
                // does only to a client that read nothing for long (`serve --idle-reader-timeout`).
                return .closedWhileRunning("the engine on \(path) closed this monitor's connection and still runs: "
                    + "it closes a client that reads nothing for a long time (2 minutes unless serve was told otherwise); was this monitor stopped?")
            }
            return .gone("the engine on \(path) closed the connection")
        } catch {
            return .gone("lost the engine on \(path): \(error)")
        }
    }

    /// Whether an engine on `path` accepts a new connection and answers a request (even with a
    /// refusal) within 2 s: one that is stopping does not (it no longer reads), one that closed
    /// a client does.
    private static func engineAnswers(on path: String) -> Bool {
        guard let probe = try? EngineClient(path: path) else { return false }
        defer { probe.close() }
        do throws(DaemonError) {
            try probe.request(.durations(updateIDs: []), timeout: .seconds(2))
            return true
        } catch {
            // A refusal (no history to ask) is an answer too.
            if case .refused = error { return true }
            return false
        }
    }

    private func askDurations(_ ids: [String]) {
        let new = state.withLock { state -> [String] in
            let new = Set(ids).subtracting(state.askedDurations)
            state.askedDurations.formUnion(new)
            return new.sorted()
        }
        if !new.isEmpty { send(.durations(updateIDs: new), as: .durations) }
    }

    private func handle(_ reply: WireReply, mailbox: Mailbox) {
        let request = state.withLock { state in reply.requestID.flatMap { state.requests.removeValue(forKey: $0) } }
        switch request {
        case .history?:
            if let error = reply.error {
                mailbox.post(.monitor(.historyUnavailable(error.message)))
            } else {
                let rows = (reply.fields["entries"]?.arrayValue ?? []).compactMap(HistoryRow.init(json:))
                mailbox.post(.monitor(.historyLoaded(rows)))
            }
        case .runs?:
            if let error = reply.error {
                mailbox.post(.monitor(.jobRunsUnavailable(error.message)))
            } else {
                let runs = (reply.fields["runs"]?.arrayValue ?? []).compactMap(JobRunRow.init(json:))
                mailbox.post(.monitor(.jobRunsLoaded(runs)))
            }
        case .durations?:
            guard reply.error == nil, let received = reply.fields["durations"]?.objectValue else { return }
            let all = state.withLock { state in
                for (id, value) in received { state.durations[id] = value.doubleValue }
                return state.durations
            }
            if !received.isEmpty { mailbox.post(.monitor(.historicalDurations(all))) }
        case .keep?:
            mailbox.post(.commandResult(reply.error?.message ?? reply.fields["said"]?.stringValue ?? "kept"))
        case .command?, nil:
            // A refused command (or a line the engine could not read): say why.
            if let error = reply.error { mailbox.post(.commandResult(error.message)) }
        }
    }
}
