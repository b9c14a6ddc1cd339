import Dispatch
import Glibc
import Synchronization

/// Writes whole lines to a file descriptor, one writer at a time, without Foundation buffering.
/// A closed reader (EPIPE, as with `| head`; SIGPIPE is ignored for that) stops further output
/// and calls `whenReaderGone`'s handler once: the caller decides what that means for the installs.
final class StandardOutput: Sendable {
    static let stdout = StandardOutput(descriptor: STDOUT_FILENO)
    static let stderr = StandardOutput(descriptor: STDERR_FILENO)

    private let descriptor: Int32
    private let closed = Mutex(false)
    private let readerGone = Mutex<(@Sendable () -> Void)?>(nil)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Writes `text` followed by a newline.
    func line(_ text: String) {
        write(text + "\n")
    }

    func write(_ text: String) {
        let justClosed = closed.withLock { closed -> Bool in
            guard !closed else { return false }
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    closed = true
                    return errno == EPIPE
                }
                bytes = bytes.dropFirst(written)
            }
            return false
        }
        if justClosed, let handler = readerGone.withLock({ $0 }) {
            // Not on the writer's thread: it may be the engine's, delivering an event.
            DispatchQueue.global().async(execute: handler)
        }
    }

    /// Calls `handler` once, on another thread, when a write finds that nobody reads any more.
    func whenReaderGone(_ handler: @escaping @Sendable () -> Void) {
        readerGone.withLock { $0 = handler }
    }
}
