import CUnixSocket
import EngineDaemon
import EngineWire
import Glibc

/// A bare connection to the engine's socket, for what `EngineClient` never sends: malformed
/// and overlong lines, and a subscriber that stops reading. Used by one test task only.
final class RawConnection {
    let descriptor: Int32
    private var reader = LineReader(maximumLength: 64 << 20)
    private var lines: [[UInt8]] = []
    private(set) var receivedBytes = 0

    struct ConnectFailed: Error {
        var errno: Int32
    }

    init(path: String) throws {
        descriptor = cus_connect(path)
        guard descriptor >= 0 else { throw ConnectFailed(errno: errno) }
    }

    deinit {
        close(descriptor)
    }

    /// Sends `text` as it is (add the newline yourself).
    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { cus_send(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }
            offset += count
        }
    }

    /// Shuts down the sending side only: the engine reads the end of input, and may still reply.
    func shutdownSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Nothing has arrived and the engine has not closed: neither a byte nor the end of the
    /// stream can be read right now. Does not wait.
    var isQuiet: Bool {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        return lines.isEmpty && poll(&descriptors, 1, 0) == 0
    }

    /// The next line, waiting at most `timeout`; `nil` at the end of the stream or the deadline.
    func nextLine(timeout: Duration = .seconds(180)) -> [UInt8]? {
        let deadline = ContinuousClock.now + timeout
        while lines.isEmpty {
            guard readOnce(until: deadline) == .data else { return nil }
        }
        return lines.removeFirst()
    }

    /// The next line read as one of the engine's messages.
    func nextMessage(timeout: Duration = .seconds(180)) throws -> ServerMessage? {
        guard let line = nextLine(timeout: timeout) else { return nil }
        return try ServerMessage.decode(line)
    }

    /// Reads (and discards) until the engine closes the connection; false at the deadline.
    func readUntilClosed(timeout: Duration = .seconds(180)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            switch readOnce(until: deadline) {
            case .data: lines.removeAll()
            case .closed: return true
            case .timedOut: return false
            }
        }
    }

    private enum ReadResult { case data, closed, timedOut }

    private func readOnce(until deadline: ContinuousClock.Instant) -> ReadResult {
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { return .timedOut }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let milliseconds = Int32(min(remaining.components.seconds * 1000 + 1, 1000))
            let ready = poll(&descriptors, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return .closed }
            receivedBytes += count
            let complete = buffer.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            for line in complete {
                if case .complete(let bytes) = line { lines.append(bytes) }
            }
            return .data
        }
    }
}
