import Synchronization

/// Problems worth telling the operator once: after the run (stderr may belong to the monitor
/// during it), or at once through `echo` (`serve` logs them). Repeats are dropped.
final class Warnings: Sendable {
    private let messages = Mutex<[String]>([])
    private let echo: (@Sendable (String) -> Void)?

    init(echo: (@Sendable (String) -> Void)? = nil) {
        self.echo = echo
    }

    func add(_ message: String) {
        let isNew = messages.withLock { messages -> Bool in
            guard !messages.contains(message) else { return false }
            messages.append(message)
            return true
        }
        if isNew { echo?(message) }
    }

    var all: [String] { messages.withLock { $0 } }
}
