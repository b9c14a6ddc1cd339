import Glibc
import InstallEngine
import InstallHistory
import TerminalUI

/// The bytes of one interactive session between the operator's terminal and a program on a
/// pseudo-terminal of installtop's (`PseudoTerminalChild`): what is typed goes to the program
/// as it is, what it writes goes to the terminal as it is and into the recording, and the
/// terminal's size follows the operator's window (SIGWINCH interrupts `poll`, and the size is
/// looked at after every wake-up).
///
/// Nothing here waits on one side while the other has something: the program's side is
/// non-blocking, typed bytes wait in a buffer of at most 64 KiB (the terminal is not read while
/// it is full) until the program reads them, so a program that stops reading cannot stop its
/// output from being shown. Typed bytes are never recorded (passwords).
struct TerminalRelay {
    /// The operator's terminal: keys come from `input`, the program's output goes to `output`.
    var input: Int32 = 0
    var output: Int32 = 1
    let child: PseudoTerminalChild
    let recorder: AsciicastWriter?
    /// Readable when the session must end now (the board got SIGTERM or SIGHUP): the program's
    /// terminal is hung up. Not read here: the board takes the signals afterwards.
    let stopDescriptor: Int32
    /// The size of the terminal the program was started with.
    var size: (columns: Int, rows: Int)

    /// What the program's output did that the reset after it must undo with care.
    private(set) var modes = TerminalModeTracker()
    /// The newest output bytes (at most `tailLimit`), for what the program said last.
    private(set) var tail: [UInt8] = []
    private static let tailLimit = 2048
    private static let chunk = 64 * 1024
    /// How long the program's last output is read after it exited (a grandchild may still
    /// hold its terminal).
    private static let drainTime = Duration.milliseconds(300)
    /// How long a program whose terminal closed has to exit by itself before it is hung up.
    private static let exitAfterHangUp = Duration.seconds(2)

    init(child: PseudoTerminalChild, recorder: AsciicastWriter?, stopDescriptor: Int32, size: (columns: Int, rows: Int)) {
        self.child = child
        self.recorder = recorder
        self.stopDescriptor = stopDescriptor
        self.size = size
    }

    /// Copies both ways until the program exits (or its terminal closes, or the stop
    /// descriptor is readable), reads what it wrote last, and returns its exit status (128 +
    /// signal when a signal ended it). The program is reaped; one still running when its
    /// terminal closed is hung up first.
    mutating func run() -> Int32 {
        let started = ContinuousClock.now
        func seconds() -> Double {
            let elapsed = ContinuousClock.now - started
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        _ = fcntl(child.master, F_SETFL, fcntl(child.master, F_GETFL) | O_NONBLOCK)
        var typed: [UInt8] = []
        var inputOpen = true
        var buffer = [UInt8](repeating: 0, count: Self.chunk)
        while true {
            var descriptors = [
                pollfd(fd: child.master, events: Int16(POLLIN) | (typed.isEmpty ? 0 : Int16(POLLOUT)), revents: 0),
                pollfd(fd: inputOpen && typed.count < Self.chunk ? input : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: child.exitDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            // Without a pidfd the program's exit is looked for every 100 ms.
            _ = poll(&descriptors, nfds_t(descriptors.count), child.exitDescriptor >= 0 ? -1 : 100)
            followWindowSize(at: seconds())
            let master = Int32(descriptors[0].revents)
            if master & Int32(POLLIN | POLLHUP | POLLERR) != 0, !copyOutput(into: &buffer, at: seconds()) {
                // Its terminal closed as it exits: its own status, not the hang-up's, unless
                // something of it lives on without the terminal.
                _ = child.wait(timeout: Self.exitAfterHangUp)
                break
            }
            if Int32(descriptors[1].revents) & Int32(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = read(input, &buffer, Self.chunk - typed.count)
                if count > 0 {
                    typed += buffer[..<count]
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    // The operator's terminal went away: hang the session up as a terminal would.
                    inputOpen = false
                    break
                }
            }
            if !typed.isEmpty {
                let count = typed.withUnsafeBytes { write(child.master, $0.baseAddress!, $0.count) }
                if count > 0 { typed.removeFirst(count) }
            }
            if Int32(descriptors[3].revents) & Int32(POLLIN) != 0 { break }
            if Int32(descriptors[2].revents) & Int32(POLLIN) != 0 || (child.exitDescriptor < 0 && child.reap(blocking: false) != nil) {
                drainOutput(into: &buffer, since: started)
                break
            }
        }
        let status = child.end()
        recorder?.finish(at: seconds())
        return status
    }

    /// Reads what the program wrote and passes it on; false once its terminal is closed.
    private mutating func copyOutput(into buffer: inout [UInt8], at time: Double) -> Bool {
        let count = read(child.master, &buffer, buffer.count)
        if count > 0 {
            show(buffer[..<count], at: time)
            return true
        }
        // EIO: every descriptor of the terminal's slave side is closed.
        return count < 0 && (errno == EAGAIN || errno == EINTR)
    }

    /// After the program exited: what is still in its terminal, for a short while.
    private mutating func drainOutput(into buffer: inout [UInt8], since started: ContinuousClock.Instant) {
        let deadline = ContinuousClock.now + Self.drainTime
        while ContinuousClock.now < deadline {
            var descriptors = [pollfd(fd: child.master, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 1, 50) > 0 else { return }
            let elapsed = ContinuousClock.now - started
            let time = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            guard copyOutput(into: &buffer, at: time) else { return }
        }
    }

    private mutating func show(_ bytes: ArraySlice<UInt8>, at time: Double) {
        TerminalOutput.write(bytes, to: output)
        recorder?.output(bytes, at: time)
        modes.scan(bytes)
        tail += bytes
        if tail.count > Self.tailLimit { tail.removeFirst(tail.count - Self.tailLimit) }
    }

    private mutating func followWindowSize(at time: Double) {
        guard let now = RawTerminalMode.size(of: output), now != size else { return }
        size = now
        child.resize(columns: now.columns, rows: now.rows)
        recorder?.resize(columns: now.columns, rows: now.rows, at: time)
    }
}
