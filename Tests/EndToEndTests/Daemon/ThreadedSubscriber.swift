import Foundation
import Synchronization

/// A subscriber that reads on its own thread until a line containing `needle` comes: for
/// floods, where a reader starved for a moment by the test process's other work would fall
/// 8 MiB behind and be dropped like a client that stopped reading.
final class ThreadedSubscriber: Sendable {
    enum State: Sendable {
        case connecting
        /// Its snapshot has arrived; live events follow.
        case subscribed
        /// The line that contained the needle.
        case found(String)
        case failed(String)
    }

    private let state = Mutex(State.connecting)

    /// Connects to `socket`, subscribes and reads, all on a new thread.
    init(socket: String, needle: String, timeout: Duration = .seconds(60)) {
        let thread = Thread { [self] in
            do {
                let client = try RawClient(socket: socket)
                try client.send(#"{"command":"subscribe"}"#)
                _ = try client.skipBlocking(untilLineContaining: #""event":"snapshot.end""#, timeout: timeout)
                state.withLock { $0 = .subscribed }
                let line = try client.skipBlocking(untilLineContaining: needle, timeout: timeout)
                state.withLock { $0 = .found(line) }
            } catch {
                state.withLock { $0 = .failed("\(error)") }
            }
        }
        thread.name = "threaded-subscriber"
        thread.start()
    }

    var current: State { state.withLock { $0 } }

    var isSubscribed: Bool {
        if case .connecting = current { return false }
        return true
    }

    /// The line found, once the thread has finished (nil while it reads).
    /// - Throws: the reason the thread failed (the engine closed the connection, a timeout).
    func result() throws -> String? {
        switch current {
        case .connecting, .subscribed: return nil
        case .found(let line): return line
        case .failed(let reason): throw EndToEndError.conditionNotMet(reason)
        }
    }
}
