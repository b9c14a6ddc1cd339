import Glibc
import MonitorRuntime
import Synchronization
import TerminalUI

/// A terminal for `MonitorLoop` tests: keys and signals typed from the test's thread (each also
/// writes a byte to a pipe the loop polls, as a real terminal's input would wake it), frames
/// recorded with the time they were drawn, and a hang-up that closes the input.
final class FakeTerminal: MonitorTerminal, Sendable {
    private let input: (read: Int32, write: Int32)
    private let signals: (read: Int32, write: Int32)
    private let keys = Mutex<[Key]>([])
    private let pendingSignals = Mutex<[Int32]>([])
    private let recorded = Mutex<[(lines: [String], at: ContinuousClock.Instant)]>([])
    private let signalChecks = Atomic(0)

    init() {
        var inputPipe: [Int32] = [-1, -1]
        var signalPipe: [Int32] = [-1, -1]
        pipe(&inputPipe)
        pipe(&signalPipe)
        input = (inputPipe[0], inputPipe[1])
        signals = (signalPipe[0], signalPipe[1])
        for descriptor in inputPipe + signalPipe { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        for descriptor in [input.read, input.write, signals.read, signals.write] where descriptor >= 0 { close(descriptor) }
    }

    // MARK: - The test's side

    func type(_ key: Key) {
        keys.withLock { $0.append(key) }
        var byte: UInt8 = 0
        _ = write(input.write, &byte, 1)
    }

    func send(signal: Int32) {
        pendingSignals.withLock { $0.append(signal) }
        var byte: UInt8 = 0
        _ = write(signals.write, &byte, 1)
    }

    /// The terminal goes away: its input reports POLLHUP from now on.
    func hangUp() {
        close(input.write)
    }

    /// Every frame drawn so far, oldest first.
    var frames: [(lines: [String], at: ContinuousClock.Instant)] { recorded.withLock { $0 } }

    /// How many times the loop has looked for signals: once per pass after each wake-up.
    var passes: Int { signalChecks.load(ordering: .relaxed) }

    // MARK: - MonitorTerminal

    var inputDescriptor: Int32 { input.read }
    var signalDescriptor: Int32 { signals.read }
    var size: (width: Int, height: Int) { (100, 30) }

    func readKeys() -> [Key] {
        var drain = [UInt8](repeating: 0, count: 256)
        while read(input.read, &drain, drain.count) > 0 {}
        return keys.withLock { typed in
            defer { typed = [] }
            return typed
        }
    }

    func takeSignals() -> [Int32] {
        signalChecks.add(1, ordering: .relaxed)
        var drain = [UInt8](repeating: 0, count: 64)
        while read(signals.read, &drain, drain.count) > 0 {}
        return pendingSignals.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }

    func draw(_ buffer: Buffer) {
        recorded.withLock { $0.append((buffer.lines, ContinuousClock.now)) }
    }

    func invalidate() {}
}
