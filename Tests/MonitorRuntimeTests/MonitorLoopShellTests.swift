import Foundation
import Glibc
import Monitor
import Testing
import TestProcessSupport

/// The board's `s` in the monitor's runtime: the terminal handed over to the shell and taken
/// back, the shell run with the link's ssh command, the board redrawn with how it ended.
@Suite("Monitor loop: a shell on a host")
struct MonitorLoopShellTests {
    @Test("s: the terminal is suspended, the shell runs with the host's ssh command, the terminal resumed, and a new frame says how it ended")
    func shellSuspendsAndRedraws() async throws {
        let loop = try RunningLoop(attached: true)
        defer { loop.terminal.send(signal: SIGTERM) }
        loop.link.post(.monitor(.host(.hosts(["web1", "web2"]))))
        loop.link.post(.ready)
        #expect(await eventually { loop.terminal.frames.last?.lines.joined().contains("web2") == true })
        loop.terminal.type(.down)
        loop.terminal.type(.character("s"))
        #expect(await eventually { !loop.shells.calls.isEmpty })
        #expect(loop.shells.calls == [FakeShellOpener.Call(host: "web2", arguments: ["ssh", "-t", "--", "web2"], suspensionsBefore: [true])])
        // Any frame since: the message expires after 5 s, and a starved test may look later.
        #expect(await eventually {
            loop.terminal.frames.contains { $0.lines.joined(separator: "\n").contains("Shell on web2 ended after 0:01 · installtop replay 3") }
        })
        #expect(loop.terminal.suspensions == [true, false])
    }

    @Test("h, Tab, Enter on a shell's run: the shells come from the opener, the playing has the terminal, the board says what was played")
    func replayFromTheHistory() async throws {
        let loop = try RunningLoop(attached: true)
        defer { loop.terminal.send(signal: SIGTERM) }
        loop.link.post(.monitor(.host(.hosts(["web1"]))))
        loop.link.post(.ready)
        #expect(await eventually { loop.terminal.frames.last?.lines.joined().contains("web1") == true })
        loop.terminal.type(.character("h"))
        loop.terminal.type(.tab)
        // The host's engine answers with no run of its own.
        loop.link.post(.monitor(.host(.jobRuns("web1", .rows([])))))
        #expect(await eventually { loop.terminal.frames.last?.lines.joined().contains("shell on web1") == true })
        loop.terminal.type(.enter)
        #expect(await eventually {
            loop.terminal.frames.contains { $0.lines.joined(separator: "\n").contains("Played run 3, shell on web1") }
        })
        #expect(loop.shells.replayed == [3])
        #expect(loop.terminal.suspensions == [true, false])
    }
}
