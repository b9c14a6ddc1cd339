import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import InstallHistory
import Synchronization
import Dispatch

/// The engine's side of daemon mode: listens on a Unix socket, sends subscribed clients a
/// snapshot of the queue and then every event, and carries out their commands on the queue.
///
/// One I/O thread serves every connection with `poll()`. Engine events are encoded once, on
/// the engine's callback thread, and appended to each subscribed client's outbox; the I/O
/// thread writes them. Nothing a client does can block the engine: commands are short, a
/// client that falls behind has its progress coalesced and output summarised (`ClientOutbox`),
/// one that reads nothing for `ServerOptions.idleReaderTimeout` while events wait is closed,
/// and a line longer than `maximumLineLength` is skipped with an error reply.
///
/// Only peers with the engine's effective uid are served (SO_PEERCRED), and members of the
/// watch group (`ServerOptions.watchGroup`) as watchers, whose commands that act are refused
/// with `notAllowed`; others get a `notAllowed` reply and are disconnected.
public final class EngineServer: Sendable {
    struct Shared {
        /// The queue as subscribers have seen it: the snapshot new subscribers get.
        var model: QueueModel
        var outboxes: [Int: ClientOutbox] = [:]
        /// A byte is in the wake pipe and the I/O thread has not looked yet.
        var wakePending = false
        /// `cleanup` replies that go out right after their job's `job.cleanedUp`, by job (each
        /// owed to its client: `ClientOutbox.repliesOwed`).
        var repliesAfterCleanUp: [Int: [(client: Int, line: [UInt8])]] = [:]
        var acceptsSubmissions = true
        var stopping = false
        /// The pending snapshot's newest state as its event line (newline included), which a
        /// new subscriber gets right after its snapshot; `nil` while the engine keeps none.
        var pendingLine: [UInt8]?
        /// The commit-confirmed runs as their `armed` line, which a new subscriber gets after
        /// the pending state; `nil` while the engine keeps none.
        var armedLine: [UInt8]?
    }

    let queue: JobQueue
    let history: HistorySource
    let options: ServerOptions
    let shared: Mutex<Shared>
    private let listener: ListeningSocket
    let wakeRead: Int32
    private let wakeWrite: Int32
    private let subscription = Mutex<EventSubscription?>(nil)
    private let finished = DispatchSemaphore(value: 0)
    /// The registered sources of observed jobs, started (`ServerOptions.observed`): the
    /// hooks' messages (`observe`, rule 28) go to them.
    let observed: ObservedWatches

    /// Claims the socket and starts serving.
    /// - Throws: `DaemonError`: the directory is unsafe, another engine serves there, the path
    ///   is taken by something else, or a system call failed.
    public init(queue: JobQueue, history: HistorySource, options: ServerOptions) throws(DaemonError) {
        self.queue = queue
        self.history = history
        self.options = options
        listener = try ListeningSocket(path: options.socketPath, group: options.watchGroup?.gid)
        var descriptors: [Int32] = [-1, -1]
        guard pipe(&descriptors) == 0 else {
            listener.remove()
            throw .system("pipe", errno: errno)
        }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        wakeRead = descriptors[0]
        wakeWrite = descriptors[1]
        observed = options.observed.start(on: queue)
        shared = Mutex(Shared(model: QueueModel(outputCapacity: queue.snapshot().outputCapacity)))
        let events = queue.subscribe { [weak self] event in self?.publish(event) }
        subscription.withLock { $0 = events }
        // Told the state at once: the line new subscribers get.
        options.pending?.observe { [weak self] state in self?.publish(state) }
        options.armed?.observe { [weak self] runs in self?.publish(runs) }
        EngineThread.detach(named: "installtop-server") { [self] in
            var loop = ServerLoop(server: self, listener: listener.descriptor)
            loop.run()
            finished.signal()
        }
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// The socket's path.
    public var socketPath: String { listener.path }

    /// From now on `submit` is refused with `shuttingDown` (the engine is stopping). Call it
    /// before aborting every job: a submit racing with it has its jobs aborted.
    public func refuseSubmissions() {
        shared.withLock { $0.acceptsSubmissions = false }
    }

    /// Stops serving: stops accepting, gives clients up to a second to receive what waits for
    /// them (the last events of the jobs), closes every connection and removes the socket.
    /// Returns when the I/O thread is done; a second call returns at once.
    public func stop() {
        let wasStopping = shared.withLock { shared -> Bool in
            defer { shared.stopping = true }
            return shared.stopping
        }
        guard !wasStopping else { return }
        observed.stop()
        wake()
        finished.wait()
        subscription.withLock { $0?.cancel() }
        listener.remove()
    }

    // MARK: - Engine events

    /// Runs on the engine's callback thread: one encoding, appended to every subscriber.
    private func publish(_ event: EngineEvent) {
        let line = EventCoding.line(event)
        let mustWake = shared.withLock { shared -> Bool in
            shared.model.apply(event)
            var touched = false
            for id in Array(shared.outboxes.keys) {
                if case .none = shared.outboxes[id]!.subscription { continue }
                // Queued or coalesced: the I/O thread may have work.
                shared.outboxes[id]!.enqueue(event, line: line)
                touched = true
            }
            if case .jobCleanedUp(let cleanUp) = event.kind, let replies = shared.repliesAfterCleanUp.removeValue(forKey: cleanUp.job) {
                for reply in replies { shared.outboxes[reply.client]?.enqueueOwedReply(reply.line) }
                touched = true
            }
            return touched && Self.claimWake(&shared)
        }
        if mustWake { wake() }
    }

    /// The pending snapshot changed, or a newer one is coming: pushed to every subscriber, in
    /// order with the events and never coalesced away (it changes once per change of the root).
    private func publish(_ pending: PendingState) {
        let line = Self.line(pending.eventLine)
        publish(line) { $0.pendingLine = line }
    }

    /// The commit-confirmed runs changed: pushed to every subscriber as the pending state is.
    private func publish(_ armed: ArmedRuns) {
        let line = Self.line(armed.eventLine)
        publish(line) { $0.armedLine = line }
    }

    /// `line` kept by `keep` for new subscribers and queued for every subscriber now.
    private func publish(_ line: [UInt8], keep: (inout Shared) -> Void) {
        let mustWake = shared.withLock { shared -> Bool in
            keep(&shared)
            var touched = false
            for id in Array(shared.outboxes.keys) {
                if case .none = shared.outboxes[id]!.subscription { continue }
                shared.outboxes[id]!.enqueueReply(line)
                touched = true
            }
            return touched && Self.claimWake(&shared)
        }
        if mustWake { wake() }
    }

    /// `text` and its newline, as a client reads a line.
    private static func line(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    // MARK: - For the I/O thread and command handlers

    /// Queues a line (without its newline) for client `id`; wakes the I/O thread when needed.
    /// `owed`: the reply promised by `oweReply(to:)`, which this settles. Nothing happens for
    /// a client that has gone.
    func send(_ line: String, to id: Int, owed: Bool = false) {
        let bytes = Self.line(line)
        let mustWake = shared.withLock { shared -> Bool in
            guard shared.outboxes[id] != nil else { return false }
            if owed {
                shared.outboxes[id]!.enqueueOwedReply(bytes)
            } else {
                shared.outboxes[id]!.enqueueReply(bytes)
            }
            return Self.claimWake(&shared)
        }
        if mustWake { wake() }
    }

    /// Client `id` will be sent a reply later, from another thread, with `send(_:to:owed:)` or
    /// `send(_:to:afterCleanUpOf:)`: until then a client whose input ended stays connected.
    /// Call it on the I/O thread, before anything that may send that reply.
    func oweReply(to id: Int) {
        shared.withLock { $0.outboxes[id]?.oweReply() }
    }

    /// Queues `line` for client `id` once `job.cleanedUp` of `job` has been queued for every
    /// subscriber (at once if it has): `JobQueue.cleanUp` returns before the event is
    /// delivered, and a client must not hear "done" before it sees the job go. The reply is
    /// one owed (`oweReply(to:)`).
    func send(_ line: String, to id: Int, afterCleanUpOf job: Int) {
        let bytes = Self.line(line)
        let sendNow = shared.withLock { shared -> Bool in
            guard shared.model.job(job) != nil else { return true }
            shared.repliesAfterCleanUp[job, default: []].append((id, bytes))
            return false
        }
        if sendNow { send(line, to: id, owed: true) }
    }

    /// True when the caller must write the wake byte (none is pending yet).
    static func claimWake(_ shared: inout Shared) -> Bool {
        guard !shared.wakePending else { return false }
        shared.wakePending = true
        return true
    }

    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }
}
