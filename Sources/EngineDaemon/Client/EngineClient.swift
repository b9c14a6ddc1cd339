import CUnixSocket
import EngineWire
import Glibc
import Synchronization

/// A connection to an engine's socket, for `submit`, `status`, `abort`, `cleanup` and
/// `attach`. Sending is safe from any thread; reading (`nextMessage`) belongs to one thread at
/// a time. `close()` from another thread wakes a blocked reader, which then sees the end.
public final class EngineClient: Sendable {
    /// The socket's path, for messages.
    public let path: String
    private let descriptor: Int32
    /// Splits what is read into lines, and the buffer reads go into (reading is one thread's
    /// at a time; the lock only makes that safe to state).
    private let reader = Mutex((lines: LineReader(maximumLength: 256 << 20), buffer: [UInt8](repeating: 0, count: 262_144)))
    /// Lines read and not yet returned, from `next` on.
    private let pendingLines = Mutex<(lines: [LineReader.Line], next: Int)>(([], 0))
    private let sendLock = Mutex(())
    private let closed = Atomic<Bool>(false)
    private let nextRequestID = Atomic<Int>(1)

    /// Connects to the engine on `path` and checks that it runs as this user or as root (whose
    /// engine its watch group may watch: `serve --watch-group`).
    /// - Throws: `noEngine` (nothing there, or a socket whose engine is gone),
    ///   `engineOfAnotherUser`, `system` (permission denied …).
    public init(path: String) throws(DaemonError) {
        let descriptor = cus_connect(path)
        guard descriptor >= 0 else {
            switch errno {
            case ENOENT, ECONNREFUSED: throw .noEngine(path)
            case ENOTSOCK: throw .notASocket(path)
            default: throw .system("connect \(path)", errno: errno)
            }
        }
        do throws(DaemonError) {
            let engine = try PeerCredentials(of: descriptor)
            // Root's engine may be watched by its watch group's members (`serve --watch-group`);
            // any other user's engine could be anyone's impostor.
            guard engine.uid == geteuid() || engine.uid == 0 else { throw DaemonError.engineOfAnotherUser(path, uid: engine.uid) }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// Sends `command`; returns the request id its reply will carry.
    /// - Throws: `connectionClosed` when the engine is gone.
    @discardableResult
    public func send(_ command: WireCommand) throws(DaemonError) -> Int {
        let requestID = nextRequestID.wrappingAdd(1, ordering: .relaxed).oldValue
        var bytes = Array(command.line(requestID: requestID).utf8)
        bytes.append(UInt8(ascii: "\n"))
        let failed = sendLock.withLock { _ -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes { cus_send(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return true }
                offset += count
            }
            return false
        }
        if failed { throw refusalWaiting() ?? .connectionClosed(path) }
        return requestID
    }

    /// After a send failed: an engine that refuses a peer (another uid, not in its watch group)
    /// says why and closes before reading anything, so the reason may be waiting to be read.
    private func refusalWaiting() -> DaemonError? {
        guard case .reply(let reply)? = try? nextMessage(timeout: .milliseconds(500)), let error = reply.error else { return nil }
        return .refused(error)
    }

    /// The next message from the engine, waiting for it (at most `timeout`, when given);
    /// `nil` once the engine has closed the connection (or `close()` was called).
    /// - Throws: `unexpectedMessage` for a line that is not one of the engine's messages,
    ///   `noAnswer` when `timeout` passes first.
    public func nextMessage(timeout: Duration? = nil) throws(DaemonError) -> ServerMessage? {
        let deadline = timeout.map { ContinuousClock.now + $0 }
        while true {
            let line = pendingLines.withLock { pending -> LineReader.Line? in
                guard pending.next < pending.lines.count else { return nil }
                defer { pending.next += 1 }
                return pending.lines[pending.next]
            }
            if let line {
                switch line {
                case .complete(let bytes):
                    do {
                        return try ServerMessage.decode(bytes)
                    } catch {
                        throw .unexpectedMessage(error.message)
                    }
                case .tooLong(let length):
                    throw .unexpectedMessage("a line of \(length) bytes")
                }
            }
            if let deadline, let timeout { try waitForInput(until: deadline, timeout: timeout) }
            guard fill() else { return nil }
        }
    }

    /// Sends `command` and waits for its reply, skipping events (use on a connection that did
    /// not subscribe, or whose events you do not need).
    ///
    /// `timeout` bounds how long the engine may stay silent, not how long it may work: once
    /// nothing has come for `timeout`, the client asks whether the engine is alive (a
    /// `durations` request for no update, which a working engine answers at once, also while
    /// it plans a job of a kind by running its tool), and waits on as long as each such
    /// question is answered within `timeout`. An engine that answers neither is given up on
    /// after twice `timeout`.
    /// - Throws: `refused` with the engine's reason, `connectionClosed`, `noAnswer`.
    @discardableResult
    public func request(_ command: WireCommand, timeout: Duration? = nil) throws(DaemonError) -> WireReply {
        let requestID = try send(command)
        var deadline = timeout.map { ContinuousClock.now + $0 }
        /// The id of the question "are you alive?" waiting for its answer.
        var probe: Int?
        while true {
            let message: ServerMessage?
            do {
                message = try nextMessage(timeout: deadline.map { max(.zero, $0 - ContinuousClock.now) })
            } catch {
                guard case .noAnswer = error, let timeout else { throw error }
                // Silent since the request (or the last answer), then silent to the question.
                guard probe == nil else { throw .noAnswer(path, seconds: Int((timeout * 2).components.seconds)) }
                probe = try send(.durations(updateIDs: []))
                deadline = ContinuousClock.now + timeout
                continue
            }
            guard let message else { throw .connectionClosed(path) }
            guard case .reply(let reply) = message else { continue }
            if let asked = probe, reply.requestID == asked {
                probe = nil
                deadline = timeout.map { ContinuousClock.now + $0 }
                continue
            }
            if let error = reply.error, reply.requestID == requestID || reply.requestID == nil {
                throw .refused(error)
            }
            if reply.requestID == requestID { return reply }
        }
    }

    /// Ends the connection; a thread blocked in `nextMessage` returns `nil`.
    public func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Waits until something can be read, or throws `noAnswer` at `deadline`.
    private func waitForInput(until deadline: ContinuousClock.Instant, timeout: Duration) throws(DaemonError) {
        while true {
            let left = deadline - ContinuousClock.now
            let milliseconds = Int32(clamping: max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 1, milliseconds)
            if ready > 0 { return }
            if ready < 0 && errno == EINTR { continue }
            throw .noAnswer(path, seconds: Int(timeout.components.seconds))
        }
    }

    /// Reads once; false at the end of the stream.
    private func fill() -> Bool {
        while true {
            let lines = reader.withLock { reader -> [LineReader.Line]? in
                let count = reader.buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { return [] }
                if count <= 0 { return nil }
                return reader.buffer.withUnsafeBytes { reader.lines.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            }
            guard let lines else { return false }
            if lines.isEmpty { continue }
            pendingLines.withLock { pending in
                pending.lines.removeFirst(pending.next)
                pending.next = 0
                pending.lines.append(contentsOf: lines)
            }
            return true
        }
    }
}
