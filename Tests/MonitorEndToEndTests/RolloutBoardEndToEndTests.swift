import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing

/// The board's rollout in tmux (`attach --host h1 … --host h4`, `--parallel` 2 by default)
/// over namespace hosts (`RolloutHosts`): three of four hosts marked, the plans' dialog, two
/// started, h2's job failing (its lab-a 2.0 postinst fails) while h1's waits at its gate: h3
/// does not start until `U` says so; dpkg's database of each root afterwards.
@Suite("The board's rollout end to end", .serialized,
       .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
struct RolloutBoardEndToEndTests {
    /// Host `host`'s row, marked (`▸●h1`) or not (`▸ h1`); empty when it is not on the screen.
    private static func row(_ host: String, in screen: String) -> String {
        screen.split(separator: "\n").first { line in
            ["▸ ", "▸●", "▾ ", "▾●"].contains { line.contains($0 + host + " ") }
        }.map(String.init) ?? ""
    }

    @Test("mark h1 h2 h3 of four, U: one dialog of their plans; y: h1 and h2 start, h2 fails, h3 waits (paused) until U; h4 untouched")
    func markedHostsTwoAtATime() async throws {
        let rollout = try RolloutHosts(count: 4, failing: 2, gated: [1])
        defer { rollout.tearDown() }
        let hosts = rollout.hosts
        #expect(await hosts.waitUntilServing())
        let tmux = try BoardScreen.attach(hosts.names, fleet: hosts.fleet, folder: hosts.folder, width: 160, height: 44)
        defer { tmux.close() }
        await tmux.waitForScreen("four idle hosts") { $0.contains("4 hosts · 4 idle") }

        tmux.send("Home")
        tmux.send("m")
        tmux.send("Down")
        tmux.send("m")
        tmux.send("Down")
        tmux.send("m")
        let marked = await tmux.waitForScreen("three hosts marked") { screen in
            screen.contains("3 marked") && (1...3).allSatisfy { Self.row("h\($0)", in: screen).contains("●h\($0)") }
        }
        #expect(marked.map { !Self.row("h4", in: $0).contains("●") } == true)

        tmux.send("U")
        let dialog = await tmux.waitForScreen("the three plans in one dialog") { screen in
            screen.contains("Upgrade 3 hosts (apt upgrade)?") && (1...3).allSatisfy { screen.contains("[x] h\($0) · 1 to upgrade") }
        }
        #expect(dialog?.contains("2 at a time") == true)
        #expect(dialog?.contains("lab-a 1.0 → 2.0") == true)
        // Held on each engine, nothing started.
        for host in 1...3 { #expect(try rollout.upgradeStates(onHost: host) == ["queued"]) }
        #expect(try rollout.upgradeStates(onHost: 4).isEmpty)

        tmux.send("y")
        let paused = await tmux.waitForScreen("h2 failed, the rollout paused, h1 still running") { screen in
            screen.contains("rollout paused: h2 failed — U continues, X stops") && Self.row("h2", in: screen).contains("failed")
        }
        #expect(paused != nil)
        #expect(try rollout.upgradeStates(onHost: 1) == ["running"])
        #expect(try rollout.upgradeStates(onHost: 3) == ["queued"], "h3 held, not started")
        rollout.openUpgradeGate(onHost: 1)
        await tmux.waitForScreen("h1 succeeded, still paused") { screen in
            Self.row("h1", in: screen).contains("succeeded") && screen.contains("rollout paused: h2 failed")
        }
        #expect(try rollout.upgradeStates(onHost: 3) == ["queued"], "h3 still held after h1 ended")

        tmux.send("U")
        await tmux.waitForScreen("h3 started and succeeded, the rollout over") { screen in
            Self.row("h3", in: screen).contains("succeeded") && !screen.contains("rollout")
        }
        #expect(try rollout.labA(onHost: 1) == "ii 2.0")
        #expect(try rollout.labA(onHost: 2) != "ii 2.0")
        #expect(try rollout.labA(onHost: 3) == "ii 2.0")
        #expect(try rollout.labA(onHost: 4) == "ii 1.0")
        for host in [1, 3, 4] { #expect(try hosts.root(host).audit().isEmpty) }

        // Nothing left to start: q leaves at once.
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { hosts.folder.read("rc") != nil }, "\(tmux.capture())")
        #expect(hosts.folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(hosts.folder.read("attach.err") ?? "")")
    }
}
