import Synchronization

/// Problems worth telling the operator once, after the run (stderr may belong to the monitor
/// during it). Repeats are dropped.
final class Warnings: Sendable {
    private let messages = Mutex<[String]>([])

    func add(_ message: String) {
        messages.withLock { if !$0.contains(message) { $0.append(message) } }
    }

    var all: [String] { messages.withLock { $0 } }
}
