import Glibc

/// A non-blocking connection to the engine's socket. Nothing here ever waits: a connect that
/// cannot complete at once, or a send the socket has no room for, fails and the caller drops
/// the message (rule 31).
final class EngineConnection {
    private let descriptor: Int32
    /// The unsent tail of a message the socket took only part of: it must go out before
    /// anything else, or the engine would read half a line glued to the next.
    private var unsent: [UInt8] = []

    /// Connects to `path`; `nil` when there is no engine there or it does not accept at once.
    init?(path: String) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            close(fd)
            return nil
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        descriptor = fd
    }

    /// Sends `line` and a newline if the socket has room now; `false` when it was dropped.
    func send(_ line: String) -> Bool {
        guard flush() else { return false }
        let bytes = Array(line.utf8) + [0x0A]
        unsent = bytes
        _ = flush()
        // Once part of it went, the rest follows before anything else: it counts as sent.
        return unsent.count < bytes.count
    }

    /// Tries once more to send a partly sent message, then closes. An unfinished line left at
    /// the engine has no newline, and the engine drops an unfinished last line.
    func finish() {
        _ = flush()
        close(descriptor)
    }

    /// Sends what is unsent; `true` when nothing is left.
    private func flush() -> Bool {
        while !unsent.isEmpty {
            let sent = unsent.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            unsent.removeFirst(sent)
        }
        return true
    }
}
