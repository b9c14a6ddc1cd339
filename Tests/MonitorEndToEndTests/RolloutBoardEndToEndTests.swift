import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing

/// An operator patching four hosts from the board in tmux (`attach --host h1 … --host h4`,
/// `--parallel` 2 by default) over namespace hosts (`RolloutHosts`): every host's lists
/// refreshed and its pending count on its row, three of four hosts marked, the plans' dialog,
/// two started, h2's job failing (its lab-a 2.0 postinst fails) while h1's waits at its gate:
/// h3 does not start until `U` says so; dpkg's database of each root afterwards; then h1's run
/// undone from the board.
@Suite("The board's rollout end to end", .serialized,
       .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
struct RolloutBoardEndToEndTests {
    /// Host `host`'s row, marked (`▸●h1`) or not (`▸ h1`); empty when it is not on the screen.
    private static func row(_ host: String, in screen: String) -> String {
        screen.split(separator: "\n").first { line in
            ["▸ ", "▸●", "▾ ", "▾●"].contains { line.contains($0 + host + " ") }
        }.map(String.init) ?? ""
    }

    @Test("the operator's patching of four hosts: M and P refresh every host two at a time and each row says what it would upgrade; h1 h2 h3 marked, U: one dialog of their plans; y: h1 and h2 start, h2 fails, h3 waits (paused) until U; h4 untouched; then h1's run undone from the board")
    func patchFourHosts() async throws {
        let rollout = try RolloutHosts(count: 4, failing: 2, gated: [1], history: true)
        defer { rollout.tearDown() }
        let hosts = rollout.hosts
        #expect(await hosts.waitUntilServing())
        let tmux = try BoardScreen.attach(hosts.names, fleet: hosts.fleet, folder: hosts.folder, width: 160, height: 44)
        defer { tmux.close() }
        await tmux.waitForScreen("four idle hosts") { $0.contains("4 hosts · 4 idle") }

        // What each host would upgrade: every host's lists refreshed, two at a time.
        tmux.send("M")
        tmux.send("P")
        // Each engine ran its refresh job (some rows may have said `1 pending` before: the
        // setup's own apt-get was seen by some engines and not others).
        let refreshedEverywhere = await EndToEndFolder.eventually {
            (1...4).allSatisfy { host in
                ((try? hosts.fleet.ownJobs(onHost: host)) ?? []).contains {
                    $0["name"] as? String == "Refresh apt's lists" && $0["state"] as? String == "succeeded"
                }
            }
        }
        #expect(refreshedEverywhere, "\((1...4).map { (try? hosts.fleet.ownJobs(onHost: $0)) ?? [] })")
        let refreshed = await tmux.waitForScreen("each host's row: 1 pending, after its refresh") { screen in
            !screen.contains("refreshing lists") && (1...4).allSatisfy { Self.row("h\($0)", in: screen).contains("1 pending") }
        }
        #expect(refreshed != nil, "\(tmux.capture())")

        // h4 unmarked: h1, h2 and h3 stay marked.
        tmux.send("End")
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
        // h2's lab-a is left half-configured: its row says so, as apt counts it, not up to date.
        await tmux.waitForScreen("h2's row: what dpkg left half-way") { Self.row("h2", in: $0).contains("1 not fully installed") }
        #expect(try rollout.labA(onHost: 1) == "ii 2.0")
        #expect(try rollout.labA(onHost: 2) == "iF 2.0")
        #expect(try rollout.labA(onHost: 3) == "ii 2.0")
        #expect(try rollout.labA(onHost: 4) == "ii 1.0")
        for host in [1, 3, 4] { #expect(try hosts.root(host).audit().isEmpty) }

        // h1's upgrade undone from the board: its history, its runs, the question naming h1.
        tmux.send("Home")
        tmux.send("h")
        await tmux.waitForScreen("h1's history, its entries loaded") { $0.contains(/History of h1 · \d+ entr(y|ies)/) && $0.contains("lab-a") }
        tmux.send("Tab")
        // The newest run, selected, is the upgrade; the refresh (not undoable) is under it.
        let runs = await tmux.waitForScreen("h1's runs, the upgrade first") { screen in
            screen.contains("History of h1 · job runs") && HistoryScreen.runRows(in: screen).first?.contains("apt upgrade") == true
        }
        #expect(runs != nil, "\(tmux.capture())")
        tmux.send("u")
        guard let question = await tmux.waitForScreen("the question naming h1", { $0.contains("Undo run ") && $0.contains(" on h1?") }) else {
            // Why h1's engine holds the run not undoable, in its own history's words.
            let runs = try await InstalltopChild.run(["history", "--jobs", "--history-db", hosts.folder.path("h1-history.db")], in: hosts.folder)
            Issue.record("h1's runs: \(runs.stdout)\(runs.stderr)")
            return
        }
        #expect(question.contains("apt upgrade"), "\(question)")
        tmux.send("y")
        await tmux.waitForScreen("the undo's plan dialog naming h1") { $0.contains("undo ") && $0.contains("on h1") && $0.contains("2.0 → 1.0") }
        tmux.send("y")
        #expect(await EndToEndFolder.eventually { (try? rollout.labA(onHost: 1)) == "ii 1.0" }, "\(tmux.capture())")
        #expect(try hosts.root(1).audit().isEmpty)
        await tmux.waitForScreen("h1's undo succeeded, its row pending again") { screen in
            Self.row("h1", in: screen).contains("succeeded") && Self.row("h1", in: screen).contains("1 pending")
        }

        // Nothing left to start: q leaves at once.
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { hosts.folder.read("rc") != nil }, "\(tmux.capture())")
        #expect(hosts.folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(hosts.folder.read("attach.err") ?? "")")
    }
}
