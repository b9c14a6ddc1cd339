import Foundation
import Glibc
import InstallEngine
import Testing

/// A program on a pseudo-terminal installtop owns: its terminal is its controlling one, of the
/// size asked, resized on request, and a hang-up ends it.
@Suite("PseudoTerminalChild")
struct PseudoTerminalChildTests {
    /// Everything the child writes until its terminal closes or `marker` appears, with a deadline.
    private func output(of child: PseudoTerminalChild, until marker: String? = nil, timeout: Duration = .seconds(60)) -> String {
        var text = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            var descriptors = [pollfd(fd: child.master, events: Int16(POLLIN), revents: 0)]
            guard poll(&descriptors, 1, 100) >= 0 else { break }
            guard descriptors[0].revents != 0 else { continue }
            let count = read(child.master, &buffer, buffer.count)
            guard count > 0 else { break }
            text += buffer[..<count]
            if let marker, String(decoding: text, as: UTF8.self).contains(marker) { break }
        }
        return String(decoding: text, as: UTF8.self)
    }

    @Test("The child's stdin, stdout and stderr are its controlling terminal, of the size asked; its exit status comes back")
    func controllingTerminal() throws {
        let child = try PseudoTerminalChild(
            arguments: ["/bin/sh", "-c", "stty size; tty; [ \"$(ps -o tty= -p $$)\" != '?' ] && echo has-ctty; echo to-stderr >&2; exit 3"],
            columns: 132, rows: 43)
        let text = output(of: child)
        #expect(text.contains("43 132"), "\(text.debugDescription)")
        #expect(text.contains("/dev/pts/"), "\(text.debugDescription)")
        #expect(text.contains("has-ctty"), "\(text.debugDescription)")
        #expect(text.contains("to-stderr"), "\(text.debugDescription)")
        #expect(child.end() == 3)
        #expect(child.reap(blocking: false) == 3, "reaped once; the status kept")
    }

    @Test("A resize reaches the program as SIGWINCH with the new size")
    func resize() throws {
        let child = try PseudoTerminalChild(
            arguments: ["/bin/sh", "-c", "trap 'stty size; exit 0' WINCH; echo ready; while :; do sleep 0.05; done"], columns: 80, rows: 24)
        #expect(output(of: child, until: "ready").contains("ready"))
        child.resize(columns: 100, rows: 30)
        let text = output(of: child, until: "30 100")
        #expect(text.contains("30 100"), "\(text.debugDescription)")
        // It exits by itself after saying the size: wait for that, never hang it up first.
        #expect(child.reap(blocking: true) == 0)
    }

    @Test("end() hangs the terminal's session up: a program that ignores nothing dies of SIGHUP; a missing program is refused with why")
    func hangUpAndMissing() throws {
        let child = try PseudoTerminalChild(arguments: ["/bin/sh", "-c", "echo ready; exec sleep 600"], columns: 80, rows: 24)
        #expect(output(of: child, until: "ready").contains("ready"))
        #expect(child.end() == 128 + SIGHUP)
        #expect(throws: PseudoTerminalChild.StartFailure.self) {
            try PseudoTerminalChild(arguments: ["installtop-no-such-program"], columns: 80, rows: 24)
        }
    }
}
