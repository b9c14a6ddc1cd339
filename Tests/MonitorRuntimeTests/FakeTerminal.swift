import Glibc
import MonitorRuntime
import Synchronization
import TerminalUI

/// A terminal for `MonitorLoop` tests: keys and signals typed from the test's thread (each also
/// writes a byte to a pipe the loop polls, as a real terminal's input would wake it), frames
/// recorded with the time they were drawn, and a hang-up that closes the input.
final class FakeTerminal: MonitorTerminal, Sendable {
    private let inputRead: Int32
    /// -1 once `hangUp()` closed it: the descriptor's number may then belong to anything the
    /// test process opens next (another test's socket), so it must never be closed twice.
    private let inputWrite: Atomic<Int32>
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
        inputRead = inputPipe[0]
        inputWrite = Atomic(inputPipe[1])
        signals = (signalPipe[0], signalPipe[1])
        for descriptor in inputPipe + signalPipe { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        let write = inputWrite.exchange(-1, ordering: .acquiringAndReleasing)
        for descriptor in [inputRead, write, signals.read, signals.write] where descriptor >= 0 { close(descriptor) }
    }

    // MARK: - The test's side

    func type(_ key: Key) {
        keys.withLock { $0.append(key) }
        var byte: UInt8 = 0
        let descriptor = inputWrite.load(ordering: .acquiring)
        if descriptor >= 0 { _ = write(descriptor, &byte, 1) }
    }

    func send(signal: Int32) {
        pendingSignals.withLock { $0.append(signal) }
        var byte: UInt8 = 0
        _ = write(signals.write, &byte, 1)
    }

    /// The terminal goes away: its input reports POLLHUP from now on.
    func hangUp() {
        let descriptor = inputWrite.exchange(-1, ordering: .acquiringAndReleasing)
        if descriptor >= 0 { close(descriptor) }
    }

    /// Every frame drawn so far, oldest first.
    var frames: [(lines: [String], at: ContinuousClock.Instant)] { recorded.withLock { $0 } }

    /// How many times the loop has looked for signals: once per pass after each wake-up.
    var passes: Int { signalChecks.load(ordering: .relaxed) }

    // MARK: - MonitorTerminal

    var inputDescriptor: Int32 { inputRead }
    var signalDescriptor: Int32 { signals.read }
    var size: (width: Int, height: Int) { (100, 30) }

    func readKeys() -> [Key] {
        var drain = [UInt8](repeating: 0, count: 256)
        while read(inputRead, &drain, drain.count) > 0 {}
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

    /// `suspend()` and `resume()` calls, in order (`true` for a suspend).
    var suspensions: [Bool] { suspended.withLock { $0 } }
    private let suspended = Mutex<[Bool]>([])

    func suspend() { suspended.withLock { $0.append(true) } }
    func resume() { suspended.withLock { $0.append(false) } }
}
