import CUnixSocket
import EngineWire
import Glibc
import InstallEngine
import Synchronization

/// A connection to an engine, for `submit`, `status`, `abort`, `cleanup` and `attach`: its
/// Unix socket on this machine, or a host's over ssh (the pipes of an `ssh HOST installtop
/// bridge` child). Sending is safe from any thread; reading (`nextMessage`) belongs to one
/// thread at a time. `close()` from another thread wakes a blocked reader, which then sees the end.
///
/// Over ssh, a link that ends with ssh (or the bridge) failing throws `linkFailed` with the
/// last line it wrote on stderr ("ssh: connect to host 10.77.0.99 port 22: No route to host");
/// writing to a child whose stdin is gone needs SIGPIPE ignored, as `installtop` does.
public final class EngineClient: Sendable {
    /// The socket's path, or over ssh the host's name: what messages name.
    public let path: String
    /// Where messages come from: the socket, or ssh's stdout.
    private let descriptor: Int32
    /// The ssh child of a link over ssh; `nil` on a socket.
    private let child: PipedChild?
    /// The end of what the ssh child wrote on stderr (at most `stderrTailLimit` bytes), and
    /// whether its stderr has ended.
    private let stderrTail = Mutex<(bytes: [UInt8], ended: Bool)>(([], false))
    private static let stderrTailLimit = 8192
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
    /// - Throws: `noEngine` (nothing there, or a socket whose engine is gone), `notAdmitted`
    ///   (the socket's mode keeps this user out), `notASocket`, `engineOfAnotherUser`, `system`.
    public init(path: String) throws(DaemonError) {
        let descriptor = cus_connect(path)
        guard descriptor >= 0 else { throw .connecting(path, failedWith: errno) }
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
        child = nil
    }

    /// Starts `ssh` as `command` says, to talk to that host's engine through its pipes. It
    /// returns at once: whether the host and its engine answer shows in the first read, which
    /// throws `linkFailed` with ssh's words when they do not.
    /// - Throws: `linkFailed` when ssh cannot be started (not in `PATH` …).
    public init(ssh command: SSHCommand) throws(DaemonError) {
        let child: PipedChild
        do {
            child = try PipedChild(arguments: command.arguments)
        } catch {
            throw .linkFailed(command.host, reason: error.description)
        }
        path = command.host
        descriptor = child.stdoutRead
        self.child = child
    }

    deinit {
        // The child owns its descriptors and closes them when it goes.
        if let child {
            child.end()
        } else {
            Glibc.close(descriptor)
        }
    }

    /// Sends `command`; returns the request id its reply will carry.
    /// - Throws: `connectionClosed` when the engine is gone.
    @discardableResult
    public func send(_ command: WireCommand) throws(DaemonError) -> Int {
        let requestID = nextRequestID.wrappingAdd(1, ordering: .relaxed).oldValue
        var bytes = Array(command.line(requestID: requestID).utf8)
        bytes.append(UInt8(ascii: "\n"))
        let failed = sendLock.withLock { _ -> Bool in
            if let child { return !child.write(bytes) }
            var offset = 0
            while offset < bytes.count {
                let count = bytes.withUnsafeBytes { cus_send(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return true }
                offset += count
            }
            return false
        }
        if failed {
            // ssh gone: say why it went, when it did.
            if let failure = linkFailure(waiting: .seconds(5)) { throw failure }
            throw refusalWaiting() ?? .connectionClosed(path)
        }
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
    ///   `noAnswer` when `timeout` passes first; over ssh, `linkFailed` when the link ends with
    ///   ssh (or the remote command) failing.
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
            if let deadline, let timeout {
                try waitForInput(until: deadline, timeout: timeout)
            } else if child != nil {
                try waitForInput(until: nil, timeout: nil)
            }
            guard fill() else {
                if let failure = linkFailure(waiting: .seconds(10)) { throw failure }
                return nil
            }
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
                guard probe == nil else { throw .noAnswer(path, waited: timeout * 2) }
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

    /// Ends the connection; a thread blocked in `nextMessage` returns `nil`. Over ssh, closes
    /// ssh's stdin and ends it (SIGTERM, SIGKILL after 5 s), and reaps it.
    public func close() {
        guard !closed.exchange(true, ordering: .relaxed) else { return }
        if let child {
            child.closeInput()
            child.end()
        } else {
            shutdown(descriptor, Int32(SHUT_RDWR))
        }
    }

    /// Waits until something can be read, or throws `noAnswer` at `deadline` (`nil`: no limit).
    /// Over ssh, keeps reading ssh's stderr meanwhile, so that it never fills its pipe and its
    /// last words are at hand.
    private func waitForInput(until deadline: ContinuousClock.Instant?, timeout: Duration?) throws(DaemonError) {
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let left = deadline - ContinuousClock.now
                milliseconds = Int32(clamping: max(0, left.wholeMilliseconds))
            }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            if let child, !stderrTail.withLock({ $0.ended }) {
                descriptors.append(pollfd(fd: child.stderrRead, events: Int16(POLLIN), revents: 0))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready > 0 {
                if descriptors.count > 1, descriptors[1].revents != 0 { readStderr() }
                if descriptors[0].revents != 0 { return }
                continue
            }
            throw .noAnswer(path, waited: timeout ?? .zero)
        }
    }

    /// Reads what ssh wrote on stderr so far (its pipe is non-blocking), keeping the end.
    private func readStderr() {
        guard let child else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(child.stderrRead, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if count == 0 { stderrTail.withLock { $0.ended = true } }
                return
            }
            stderrTail.withLock { tail in
                tail.bytes.append(contentsOf: buffer[..<count])
                if tail.bytes.count > Self.stderrTailLimit { tail.bytes.removeFirst(tail.bytes.count - Self.stderrTailLimit) }
            }
        }
    }

    /// Over ssh, once its stdout has ended: waits (up to `waiting`, then ends it) for ssh to
    /// exit and returns `linkFailed` with its last stderr line when it failed; `nil` when it
    /// exited 0, on a socket, or after `close()`.
    private func linkFailure(waiting: Duration) -> DaemonError? {
        guard let child, !closed.load(ordering: .relaxed) else { return nil }
        let status = child.wait(timeout: waiting) ?? child.end()
        readStderr()
        guard status != 0 else { return nil }
        let text = stderrTail.withLock { String(decoding: $0.bytes, as: UTF8.self) }
        let lastLine = text.split(whereSeparator: \.isNewline)
            .map { $0.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed() }
            .last { !$0.isEmpty }
        let reason = lastLine.map { String($0) }
            ?? (status > 128 ? "ssh was ended by signal \(status - 128)" : "ssh exited with status \(status)")
        return .linkFailed(path, reason: reason)
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
