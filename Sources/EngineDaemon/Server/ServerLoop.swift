import CUnixSocket
import EngineWire
import Glibc
import Synchronization

/// The server's I/O thread: accepts, reads commands, writes what waits in the outboxes. Owns
/// every socket; touches shared state only through `EngineServer.shared`.
struct ServerLoop {
    let server: EngineServer
    let listener: Int32
    let uid = geteuid()
    var connections: [Int: ClientConnection] = [:]
    private var nextID = 1
    /// Out of file descriptors: the listener is left out of `poll()` until then (it would
    /// report the waiting connection at once, forever).
    private var acceptPausedUntil: ContinuousClock.Instant?
    /// Said once per shortage, not every 100 ms.
    private var saidOutOfDescriptors = false

    init(server: EngineServer, listener: Int32) {
        self.server = server
        self.listener = listener
    }

    mutating func run() {
        var stopDeadline: ContinuousClock.Instant?
        while true {
            advanceSnapshots()
            let stopping = collectOutput()
            writeAll()
            closeAnswered()
            if stopping {
                let deadline = stopDeadline ?? ContinuousClock.now + .seconds(1)
                stopDeadline = deadline
                if connections.values.allSatisfy({ $0.sending.isEmpty && !$0.outboxWaiting && $0.snapshot == nil }) || ContinuousClock.now >= deadline {
                    for id in Array(connections.keys) { disconnect(id, reason: nil) }
                    return
                }
            }
            if let until = acceptPausedUntil, ContinuousClock.now >= until { acceptPausedUntil = nil }
            let listening = !stopping && acceptPausedUntil == nil
            var descriptors = [pollfd(fd: server.wakeRead, events: Int16(POLLIN), revents: 0)]
            if listening { descriptors.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
            let ids = Array(connections.keys)
            for id in ids {
                let connection = connections[id]!
                var events: Int32 = 0
                if !connection.inputClosed && !stopping { events |= POLLIN }
                if connection.sentCount < connection.sending.count || connection.outboxWaiting || connection.snapshot != nil {
                    events |= POLLOUT
                }
                descriptors.append(pollfd(fd: connection.descriptor, events: Int16(events), revents: 0))
            }
            // While bytes wait for a client that is not taking them, the loop comes back every
            // second to see whether it has read nothing for too long.
            let waiting = connections.values.contains { $0.outboxWaiting || $0.snapshot != nil }
            let timeout: Int32 = stopping ? 50 : acceptPausedUntil != nil ? 100 : waiting ? 1_000 : -1
            _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if listening, descriptors[1].revents != 0 { acceptAll() }
            let offset = listening ? 2 : 1
            for (position, id) in ids.enumerated() {
                let revents = Int32(descriptors[offset + position].revents)
                guard revents != 0, connections[id] != nil else { continue }
                if revents & POLLIN != 0 {
                    readAll(id)
                } else if revents & (POLLHUP | POLLERR | POLLNVAL) != 0 {
                    disconnect(id, reason: nil)
                }
            }
        }
    }

    // MARK: - Output

    /// Empties the wake pipe, moves waiting bytes to connections that have finished their
    /// last write, and closes clients that read nothing for `idleReaderTimeout` while events
    /// waited. Returns whether the server is stopping.
    private mutating func collectOutput() -> Bool {
        var bytes = [UInt8](repeating: 0, count: 256)
        while read(server.wakeRead, &bytes, bytes.count) > 0 {}
        var stalled: [Int] = []
        let now = ContinuousClock.now
        let patience = server.options.idleReaderTimeout
        let stopping = server.shared.withLock { shared -> Bool in
            shared.wakePending = false
            for id in Array(shared.outboxes.keys) {
                guard var connection = connections[id], var outbox = shared.outboxes.removeValue(forKey: id) else { continue }
                defer { shared.outboxes[id] = outbox }
                // Bytes the socket took count as reading, however few: only a client that reads
                // nothing at all is closed.
                if connection.readSinceCheck { outbox.consumerRead() }
                connection.readSinceCheck = false
                if outbox.stalled(now: now, patience: patience) {
                    stalled.append(id)
                    continue
                }
                if connection.sentCount == connection.sending.count, outbox.hasPending {
                    connection.sending = outbox.take()
                    connection.sentCount = 0
                }
                connection.outboxWaiting = outbox.hasPending
                connections[id] = connection
            }
            return shared.stopping
        }
        for id in stalled {
            disconnect(id, reason: "closed: it read nothing for \(patience.components.seconds) s while events waited for it")
        }
        return stopping
    }

    /// Writes as much as each socket takes without blocking.
    private mutating func writeAll() {
        for id in Array(connections.keys) {
            guard var connection = connections[id], connection.sentCount < connection.sending.count else { continue }
            var failed = false
            while connection.sentCount < connection.sending.count {
                let count = connection.sending.withUnsafeBytes { buffer in
                    cus_send_nonblocking(
                        connection.descriptor, buffer.baseAddress! + connection.sentCount, buffer.count - connection.sentCount)
                }
                if count > 0 {
                    connection.sentCount += count
                    connection.readSinceCheck = true
                } else if count < 0 && errno == EINTR {
                    continue
                } else {
                    failed = count < 0 && errno != EAGAIN && errno != EWOULDBLOCK
                    break
                }
            }
            if connection.sentCount == connection.sending.count {
                connection.sending.removeAll(keepingCapacity: connection.sending.capacity <= 1 << 20)
                connection.sentCount = 0
            }
            connections[id] = connection
            if failed { disconnect(id, reason: nil) }
        }
    }

    /// Closes every client whose input has ended, that did not subscribe, and that has been
    /// sent everything it is owed: replies queued and written, none still to come from another
    /// thread (`ClientOutbox.repliesOwed`). A one-shot client (`printf … | socat`, a bridge
    /// whose stdin was a file) then reads the end of the stream after its replies instead of
    /// waiting for ever. A subscriber stays: it half-closed to receive events.
    private mutating func closeAnswered() {
        let candidates = connections.values.filter { connection in
            connection.inputClosed && !connection.subscribed && connection.sentCount == connection.sending.count
                && !connection.outboxWaiting && connection.snapshot == nil
        }.map(\.id)
        guard !candidates.isEmpty else { return }
        // A reply queued since `collectOutput` makes the outbox unsettled: it is written on the
        // next turn (its wake byte is on its way), and the client closed after it.
        let answered = server.shared.withLock { shared in
            candidates.filter { shared.outboxes[$0]?.isSettled ?? true }
        }
        for id in answered { disconnect(id, reason: nil) }
    }

    // MARK: - Connections

    private mutating func acceptAll() {
        while true {
            let descriptor = cus_accept(listener)
            guard descriptor >= 0 else {
                if errno == EMFILE || errno == ENFILE {
                    if !saidOutOfDescriptors { server.options.log("cannot accept connections: too many open files; retrying every 100 ms") }
                    saidOutOfDescriptors = true
                    acceptPausedUntil = ContinuousClock.now + .milliseconds(100)
                }
                return
            }
            saidOutOfDescriptors = false
            guard let peer = try? PeerCredentials(of: descriptor) else {
                close(descriptor)
                continue
            }
            let group = server.options.watchGroup
            let watches = peer.uid != uid && group.map { peer.isMember(of: $0.gid) } == true
            guard peer.uid == uid || watches else {
                let also = group.map { " and the members of group \($0.name)" } ?? ""
                let reply = WireReply(command: "connect", requestID: nil, error: WireError(
                    .notAllowed, "this engine serves uid \(uid)\(also) only; you are uid \(peer.uid): " + WatchGroup.advice(group: group?.name)))
                let line = Array((reply.line + "\n").utf8)
                _ = line.withUnsafeBytes { cus_send_nonblocking(descriptor, $0.baseAddress, $0.count) }
                close(descriptor)
                server.options.log("refused a connection from uid \(peer.uid) (pid \(peer.pid)): not the engine's uid \(uid)\(also)")
                continue
            }
            let id = nextID
            nextID += 1
            connections[id] = ClientConnection(
                id: id, descriptor: descriptor, peer: peer, watchesOnly: watches, maximumLineLength: server.options.maximumLineLength)
            if watches { server.options.log("\(connections[id]?.name ?? "client \(id)") connected: a member of group \(group?.name ?? ""), it may watch and not act") }
            let summariseAfter = max(1, server.options.backlogLimit / 4)
            server.shared.withLock { $0.outboxes[id] = ClientOutbox(summariseAfter: summariseAfter) }
        }
    }

    /// Reads what the client sent (at most 1 MiB a turn, so one client cannot starve the rest)
    /// and handles every complete line.
    private mutating func readAll(_ id: Int) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        for _ in 0..<16 {
            guard var connection = connections[id] else { return }
            let count = buffer.withUnsafeMutableBytes { read(connection.descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                disconnect(id, reason: nil)
                return
            }
            if count == 0 {
                // Half-closed: replies still go out, and events to a subscriber until it closes
                // (POLLHUP) or a write fails; any other client is closed once it has its
                // replies (`closeAnswered`).
                connection.inputClosed = true
                connections[id] = connection
                return
            }
            let lines = buffer.withUnsafeBytes { connection.reader.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            connections[id] = connection
            for line in lines { handle(line, from: id) }
        }
    }

    mutating func disconnect(_ id: Int, reason: String?) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        close(connection.descriptor)
        server.shared.withLock { _ = $0.outboxes.removeValue(forKey: id) }
        if let reason { server.options.log("\(connection.name) \(reason)") }
    }
}
