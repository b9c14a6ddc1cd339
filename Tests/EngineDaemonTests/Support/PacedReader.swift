import CUnixSocket
import EngineDaemon
import EngineWire
import Foundation
import Glibc
import InstallEngine
import Synchronization

/// A subscriber that reads slowly on a thread of its own: at most `bytesPerTurn` bytes, then
/// waits `pause`, the way a client on a slow link reads. It keeps every event and stops at the
/// end of the stream or once it has seen `job.completed` of job `lastJob`.
final class PacedReader: Sendable {
    private struct State {
        var events: [EngineEvent] = []
        var receivedBytes = 0
        var snapshotEnded = false
        var closed = false
        var finished = false
        var error: String?
    }

    private let state = Mutex(State())

    init(path: String, bytesPerTurn: Int, pause: Duration, lastJob: Int) throws {
        let descriptor = cus_connect(path)
        guard descriptor >= 0 else { throw RawConnection.ConnectFailed(errno: errno) }
        let subscribe = Array((WireCommand.subscribe.line() + "\n").utf8)
        _ = subscribe.withUnsafeBytes { cus_send(descriptor, $0.baseAddress, $0.count) }
        let thread = Thread { [self] in
            defer { close(descriptor) }
            var reader = LineReader(maximumLength: 64 << 20)
            var buffer = [UInt8](repeating: 0, count: bytesPerTurn)
            let pauseMicroseconds = UInt32(pause.components.seconds * 1_000_000 + pause.components.attoseconds / 1_000_000_000_000)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    self.state.withLock { $0.closed = true }
                    return
                }
                let lines = buffer.withUnsafeBytes { reader.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                var done = false
                self.state.withLock { state in
                    state.receivedBytes += count
                    for line in lines {
                        guard case .complete(let bytes) = line else { continue }
                        switch try? ServerMessage.decode(bytes) {
                        case .event(let event)?:
                            guard state.snapshotEnded else { continue }
                            state.events.append(event)
                            if case .jobCompleted(let completion) = event.kind, completion.job == lastJob { state.finished = true }
                        case .snapshotEnd?:
                            state.snapshotEnded = true
                        case nil:
                            state.error = "a line that is not a message: \(String(decoding: bytes.prefix(200), as: UTF8.self))"
                        default:
                            break
                        }
                    }
                    done = state.finished
                }
                if done { return }
                // The pace of a slow link: this is what the test is about, not a wait for something.
                usleep(pauseMicroseconds)
            }
        }
        thread.name = "paced-reader"
        thread.start()
    }

    /// Live events received so far (after `snapshot.end`), in order.
    var events: [EngineEvent] { state.withLock { $0.events } }
    var receivedBytes: Int { state.withLock { $0.receivedBytes } }
    var snapshotEnded: Bool { state.withLock { $0.snapshotEnded } }
    /// The engine closed the connection.
    var closed: Bool { state.withLock { $0.closed } }
    /// It saw `job.completed` of its last job.
    var finished: Bool { state.withLock { $0.finished } }
    var error: String? { state.withLock { $0.error } }
}
