import APTTestSupport
import Foundation
import Glibc
import Testing

/// Issue 44, item 5, in a real terminal without a network: `installtop attach` in tmux on two
/// `installtop serve` engines on private sockets, each reached through a stand-in ssh that runs
/// `installtop bridge` to its socket. The selection stays on its host when that host's link is
/// lost and found again; an engine stopped behind a live link is marked stale within seconds
/// and is current again when it runs on.
@Suite("Board rows that stay true, end to end")
struct BoardRowsEndToEndTests {
    @Test("the selection stays on its host across the host's reconnect; an engine stopped (SIGSTOP) behind a live link is stale within seconds, current again after SIGCONT")
    func selectionAndStoppedEngine() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let binary = try EndToEndFolder.binary()
        let quietAPT = try APTTestRoot(folder: folder.path("quiet-apt"))
        var engines: [InstalltopChild] = []
        // SIGTERM (each engine aborts its job, then exits), SIGKILL after 5 s.
        defer { engines.removeAll() }
        // A stopped engine takes no SIGTERM: it is woken first, also when the test fails.
        defer { for engine in engines { kill(engine.pid, SIGCONT) } }
        engines = try await folder.startEngines(["one", "two"], apt: quietAPT)
        for name in ["one", "two"] { try await folder.queueSleepingJob(on: name) }
        // The stand-in for ssh: the host after `--` names the engine's socket; each link's pid
        // (the bridge's, after exec) is kept, so that the test can end that link and no other.
        try FileManager.default.createDirectory(atPath: folder.path("bin"), withIntermediateDirectories: true)
        try folder.write("bin/ssh", """
            #!/bin/sh
            while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
            case $2 in
              one|two) echo $$ > '\(folder.url.path)'/"$2.bridge.pid"; exec '\(binary)' bridge --socket '\(folder.url.path)'/"$2.sock" ;;
              *) echo "ssh: Could not resolve hostname $2: Name or service not known" >&2; exit 255 ;;
            esac
            """, executable: true)
        let command = "PATH='\(folder.path("bin"))':\"$PATH\" '\(binary)' attach --host one --host two"
            + " 2> '\(folder.path("attach.err"))'; \(folder.exitStatus(to: "rc")); sleep 3600"
        let tmux = try TmuxSession(width: 120, height: 30, home: folder.url, command: command)
        defer { tmux.close() }
        await tmux.waitForScreen("both jobs on the board") { screen in
            screen.contains("2 hosts · 2 installing") && BoardScreen.row("one", in: screen).contains("Job of one")
                && BoardScreen.row("two", in: screen).contains("Job of two")
        }
        tmux.send("Home")
        tmux.send("Down")
        await tmux.waitForScreen("two selected") { $0.contains("┌ two: Job of two") }

        // two's link ends (its bridge killed); it is tried again after 1 s and its queue comes
        // afresh. Issue 44: "after a host reconnected, the selection had moved to another host".
        let bridge = try #require(folder.read("two.bridge.pid").flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        kill(bridge, SIGTERM)
        let back = await tmux.waitForScreen("two back on a new link") { screen in
            let pid = folder.read("two.bridge.pid").flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return pid != nil && pid != bridge && screen.contains("2 hosts · 2 installing") && !screen.contains("unreachable")
        }
        #expect(back?.contains("┌ two: Job of two") == true, "the selection stayed on two: \(back ?? "")")
        tmux.send("a")
        await tmux.waitForScreen("the question naming two") { $0.contains("Abort Job of two on two?") }
        tmux.send("Escape")
        await tmux.waitForScreen("the question closed") { !$0.contains("Abort Job of two on two?") }

        // two's engine stopped: its link stays up, and it says nothing more.
        let stopped = ContinuousClock.now
        #expect(kill(engines[1].pid, SIGSTOP) == 0)
        let stale = await tmux.waitForScreen("two stale within seconds", timeout: .seconds(20)) { screen in
            BoardScreen.row("two", in: screen).contains("no answer for") && screen.contains("2 hosts · 1 installing · 1 unreachable")
        }
        let marked = ContinuousClock.now - stopped
        #expect(stale.map { BoardScreen.row("one", in: $0).contains("Job of one") } == true, "one goes on: \(stale ?? "")")
        print("two marked stale \(marked) after its engine was stopped")

        #expect(kill(engines[1].pid, SIGCONT) == 0)
        let continued = ContinuousClock.now
        await tmux.waitForScreen("two current again", timeout: .seconds(20)) { screen in
            BoardScreen.row("two", in: screen).contains("Job of two") && screen.contains("2 hosts · 2 installing")
        }
        print("two current again \(ContinuousClock.now - continued) after its engine was continued")

        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(folder.read("attach.err") ?? "")")
    }
}
