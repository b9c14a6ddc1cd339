import Glibc
import Synchronization

/// Writes whole lines to a file descriptor, one writer at a time, without Foundation buffering.
/// A closed reader (EPIPE, as with `| head`) stops further output but never the installs.
final class StandardOutput: Sendable {
    static let stdout = StandardOutput(descriptor: STDOUT_FILENO)
    static let stderr = StandardOutput(descriptor: STDERR_FILENO)

    private let descriptor: Int32
    private let closed = Mutex(false)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `text` followed by a newline.
    func line(_ text: String) {
        write(text + "\n")
    }

    func write(_ text: String) {
        closed.withLock { closed in
            guard !closed else { return }
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    closed = true
                    return
                }
                bytes = bytes.dropFirst(written)
            }
        }
    }
}
