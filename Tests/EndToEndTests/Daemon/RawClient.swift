import Foundation
import Glibc

/// A bare protocol client on the engine's socket, written with plain socket calls: it sends
/// whatever bytes a test wants (malformed lines, 10 MB lines) and reads the engine's JSON
/// lines back, or deliberately never reads. `close()` (or deinit) closes the socket.
final class RawClient {
    private var descriptor: Int32
    /// Bytes read and not yet returned as lines, from `start` on.
    private var buffer: [UInt8] = []
    private var start = 0
    /// The lines returned so far, for failure messages (the last 50).
    private(set) var recent: [String] = []
    /// Bytes read from the socket so far, for failure messages.
    private(set) var bytesRead = 0
    /// Whether `nextLine` returns the engine's `pending` pushes: they come whenever its pending
    /// snapshot changes (its first computation among them), between any two events, so a test
    /// of the queue's events skips them.
    private let pendingEvents: Bool

    /// Connects to the socket at `path`, subscribes, and reads past the snapshot: what it reads
    /// next is what happens from now on (the engine's `pending` pushes only with `pendingEvents`).
    static func subscribed(to path: String, pendingEvents: Bool = false) async throws -> RawClient {
        let client = try RawClient(socket: path, pendingEvents: pendingEvents)
        try client.send(#"{"command":"subscribe","id":1}"#)
        _ = try await client.read(until: "snapshot.end") { $0.name == "snapshot.end" }
        return client
    }

    /// Connects to the socket at `path`; `nextLine` skips the engine's `pending` pushes unless
    /// `pendingEvents`.
    /// - Throws: `DaemonTestError.socket` when socket(2) or connect(2) fails.
    init(socket path: String, pendingEvents: Bool = false) throws {
        self.pendingEvents = pendingEvents
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw DaemonTestError.socket("socket", errno: errno) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            Glibc.close(descriptor)
            throw DaemonTestError.socket("connect \(path)", errno: ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(descriptor)
            throw DaemonTestError.socket("connect \(path)", errno: code)
        }
        // Reads never block the test's task: an empty socket is polled with short sleeps.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit { close() }

    /// Closes the socket (at once, whatever is unread).
    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    // MARK: - Sending

    /// Shuts down the sending side only (the engine reads end-of-file; replies and events may
    /// still come).
    func shutdownSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Sends `line` and a newline, waiting (in poll) while the socket is full: for short lines.
    /// - Throws: `DaemonTestError.socket` when the engine closed the connection.
    func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while try !writeSome(bytes, from: &offset) {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)]
            _ = poll(&descriptors, 1, 100)
        }
    }

    /// Sends every byte; while the socket is full (the engine reads at its own pace) it sleeps
    /// instead of blocking a thread of the test's pool.
    /// - Throws: `DaemonTestError.socket` when the engine closed the connection.
    func send(bytes: [UInt8]) async throws {
        var offset = 0
        while try !writeSome(bytes, from: &offset) {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }

    /// Writes what the socket takes now; returns whether everything from `offset` on is written.
    private func writeSome(_ bytes: [UInt8], from offset: inout Int) throws -> Bool {
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if count > 0 {
                offset += count
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                return false
            } else {
                throw DaemonTestError.socket("send", errno: errno)
            }
        }
        return true
    }

    // MARK: - Reading

    /// The next line the engine sent, or `nil` once it closed the connection.
    /// - Throws: `timedOut` when no whole line came within `timeout`.
    func nextLine(timeout: Duration = .seconds(180)) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let line = takeLine() {
                if !pendingEvents, line.hasPrefix(#"{"event":"pending","#) { continue }
                return remember(line)
            }
            switch readChunk() {
            case .data: continue
            case .end: return nil
            case .empty:
                guard ContinuousClock.now < deadline else {
                    throw DaemonTestError.timedOut(waitingFor: "a line", received: recent)
                }
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    /// Reads lines up to and including the first whose JSON object satisfies `match`; returns
    /// them all, parsed (lines that are not JSON objects are kept with empty fields).
    /// - Throws: `closed` or `timedOut`, naming `what`.
    func read(until what: String, timeout: Duration = .seconds(180), _ match: (JSONEvent) -> Bool) async throws -> [JSONEvent] {
        let deadline = ContinuousClock.now + timeout
        var lines: [JSONEvent] = []
        while true {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw DaemonTestError.timedOut(waitingFor: what, received: recent) }
            let line: String?
            do {
                line = try await nextLine(timeout: remaining)
            } catch DaemonTestError.timedOut {
                throw DaemonTestError.timedOut(waitingFor: what, received: recent)
            }
            guard let line else { throw DaemonTestError.closed(waitingFor: what, received: recent) }
            let message = JSONEvent(line: line)
            lines.append(message)
            if match(message) { return lines }
        }
    }

    /// Reads the reply to the command with request id `id` (events before it are returned too).
    func reply(to id: Int, timeout: Duration = .seconds(180)) async throws -> JSONEvent {
        let lines = try await read(until: "the reply with id \(id)", timeout: timeout) { $0.string("reply") != nil && $0.int("id") == id }
        return lines[lines.count - 1]
    }

    /// Reads lines without keeping or parsing them until one contains `needle` (a cheap byte
    /// search, for floods) and returns that line. Blocks the calling thread (in poll): for a
    /// reader on its own thread, which the test's busy task pool cannot starve.
    ///
    /// It gives up when nothing at all arrives for `idle`: a reader that gets bytes is not
    /// starved, however long a loaded machine takes to produce what it waits for (the caller
    /// bounds that wait where it knows what should happen by when).
    /// `onRead` gets the bytes read in all after each read.
    /// - Throws: `closed`, or `timedOut` with the bytes read and the last line skipped.
    func skipBlocking(untilLineContaining needle: String, idle: Duration = .seconds(60), onRead: (Int) -> Void = { _ in }) throws -> String {
        var deadline = ContinuousClock.now + idle
        let pattern = Array(needle.utf8)
        // The last line skipped, for the failure message: what the engine sent last.
        var lastSkipped: String?
        func received() -> [String] {
            recent + ["(\(bytesRead) bytes read in all; the last line skipped:)", lastSkipped.map { String($0.prefix(300)) } ?? "none"]
        }
        while true {
            while let range = nextLineRange() {
                let found = buffer.withUnsafeBufferPointer { whole in
                    contains(UnsafeBufferPointer(rebasing: whole[range]), pattern)
                }
                start = range.upperBound + 1
                if found { return remember(String(decoding: buffer[range], as: UTF8.self)) }
                if nextLineRange() == nil { lastSkipped = String(decoding: buffer[range], as: UTF8.self) }
            }
            switch readChunk() {
            case .data:
                onRead(bytesRead)
                deadline = ContinuousClock.now + idle
            case .end:
                throw DaemonTestError.closed(waitingFor: "a line containing \(needle)", received: received())
            case .empty:
                guard ContinuousClock.now < deadline else {
                    throw DaemonTestError.timedOut(waitingFor: "a line containing \(needle) (nothing came for \(idle))", received: received())
                }
                var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
                _ = poll(&descriptors, 1, 100)
            }
        }
    }

    /// Reads (and drops) everything until the engine closes the connection; returns whether
    /// it did within `timeout`, and the number of bytes read.
    func drainUntilClosed(timeout: Duration = .seconds(180)) async -> (closed: Bool, bytes: Int) {
        let deadline = ContinuousClock.now + timeout
        var total = 0
        while ContinuousClock.now < deadline {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            switch readChunk() {
            case .data(let count): total += count
            case .end: return (true, total)
            case .empty: try? await Task.sleep(for: .milliseconds(5))
            }
        }
        return (false, total)
    }

    // MARK: - Private

    private enum Chunk {
        case data(Int)
        case end
        case empty
    }

    private func readChunk() -> Chunk {
        if start > 1 << 20 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
            bytesRead += count
            return .data(count)
        }
        if count == 0 { return .end }
        // ECONNRESET: the engine closed with bytes of ours unread; that is an end too.
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? .empty : .end
    }

    /// The range of the next whole line (without its newline), if one is buffered.
    private func nextLineRange() -> Range<Int>? {
        guard start < buffer.count else { return nil }
        let newline = buffer.withUnsafeBufferPointer { whole -> Int? in
            guard let found = memchr(whole.baseAddress! + start, Int32(UInt8(ascii: "\n")), whole.count - start) else { return nil }
            return whole.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        return newline.map { start..<$0 }
    }

    private func takeLine() -> String? {
        guard let range = nextLineRange() else { return nil }
        start = range.upperBound + 1
        return String(decoding: buffer[range], as: UTF8.self)
    }

    private func remember(_ line: String) -> String {
        recent.append(line.count > 300 ? String(line.prefix(300)) + "…" : line)
        if recent.count > 50 { recent.removeFirst(recent.count - 50) }
        return line
    }

    /// Whether `needle` occurs in `haystack` (memchr for its first byte, memcmp for the rest).
    private func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard let base = haystack.baseAddress, haystack.count >= needle.count else { return false }
        return needle.withUnsafeBufferPointer { pattern in
            var offset = 0
            let last = haystack.count - pattern.count
            while offset <= last {
                guard let found = memchr(base + offset, Int32(first), last - offset + 1) else { return false }
                let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if memcmp(base + position, pattern.baseAddress!, pattern.count) == 0 { return true }
                offset = position + 1
            }
            return false
        }
    }
}
