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
    /// Bytes read so far and when the last came: a test that waits for the engine to get
    /// somewhere waits as long as the engine is seen to work (`isStarved`).
    private let reading = Mutex((bytes: 0, at: ContinuousClock.now))

    /// Connects to `socket`, subscribes and reads, all on a new thread; fails when nothing
    /// arrives for `idle` (see `RawClient.skipBlocking`).
    init(socket: String, needle: String, idle: Duration = .seconds(60)) {
        let thread = Thread { [self] in
            do {
                let client = try RawClient(socket: socket)
                try client.send(#"{"command":"subscribe"}"#)
                _ = try client.skipBlocking(untilLineContaining: #""event":"snapshot.end""#, idle: idle)
                reading.withLock { $0.at = ContinuousClock.now }
                state.withLock { $0 = .subscribed }
                // Live events come once the test makes some (a submission, which a loaded
                // machine may take a minute to start): the thread gives up only after a long
                // silence, and `waitWhileReading` judges starvation from when it began waiting.
                let line = try client.skipBlocking(untilLineContaining: needle, idle: max(idle, .seconds(300))) { [self] total in
                    reading.withLock { $0 = (total, ContinuousClock.now) }
                }
                state.withLock { $0 = .found(line) }
            } catch {
                state.withLock { $0 = .failed("\(error)") }
            }
        }
        thread.name = "threaded-subscriber"
        thread.start()
    }

    var current: State { state.withLock { $0 } }

    /// Bytes of live events read so far.
    var bytesRead: Int { reading.withLock { $0.bytes } }

    /// Whether nothing has arrived for `idle` (since its snapshot, or since it subscribed), nor
    /// since `since` (when a wait began: silence before the test made the engine work is no
    /// starvation).
    func isStarved(for idle: Duration = .seconds(60), since: ContinuousClock.Instant? = nil) -> Bool {
        reading.withLock { ContinuousClock.now - max($0.at, since ?? $0.at) > idle }
    }

    var isSubscribed: Bool {
        if case .connecting = current { return false }
        return true
    }

    /// Polls `condition` every 10 ms until it holds, for as long as the engine is seen to work:
    /// throws `conditionNotMet(what)` once nothing has reached this subscriber for `idle`, and
    /// the reason its thread failed if it did.
    func waitWhileReading(_ what: String, idle: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws {
        let began = ContinuousClock.now
        while true {
            if try await condition() { return }
            _ = try result()
            if isStarved(for: idle, since: began) {
                if try await condition() { return }
                throw EndToEndError.conditionNotMet("\(what) (nothing reached the reading subscriber for \(idle); \(bytesRead) bytes read)")
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
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
