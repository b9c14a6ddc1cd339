import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing

/// Commit-confirmed upgrades across hosts (issue 57, Documentation/COMMIT-CONFIRMED.md) over
/// namespace hosts, each with its own sshd, `serve` recording a history, and private apt root
/// (`RolloutHosts`): each host's engine arms its run, the command line or the board keeps it
/// (by a fresh ssh login, or `K`), and a run not kept is undone by the host's engine itself;
/// compared with dpkg's database in each root and each engine's own history afterwards.
@Suite("Commit-confirmed upgrades across hosts end to end", .serialized,
       .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
struct RolloutConfirmEndToEndTests {
    /// Host `host`'s newest run with a window, from its engine's history (`history --jobs --json`).
    private static func window(_ rollout: RolloutHosts, host: Int) async throws -> [String: Any]? {
        let listed = try await InstalltopChild.run(["history", "--jobs", "--json", "--history-db", rollout.hosts.folder.path("h\(host)-history.db")],
                                                   in: rollout.hosts.folder)
        // One run a line, newest first.
        let runs = listed.stdout.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
        return runs.lazy.compactMap { $0["confirm"] as? [String: Any] }.first
    }

    /// Polls host `host`'s window until its state is `state` (3 minutes at most).
    private static func waitForWindow(_ rollout: RolloutHosts, host: Int, state: String) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(180)
        while ContinuousClock.now < deadline {
            if let window = try? await window(rollout, host: host), window["state"] as? String == state { return true }
            try? await Task.sleep(for: .milliseconds(300))
        }
        return false
    }

    @Test("apt upgrade --hosts --confirm --confirm-by-login --revert-on-regression, one host at a time: h1 armed and kept after a fresh ssh login (confirmed, lab-a 2.0 stays); h2's upgrade breaks its check: reverted by its own engine at once (lab-a back at 1.0, dpkg clean), the host failed, exit 1")
    func keptByLoginAndRevertedOnRegression() async throws {
        let rollout = try RolloutHosts(count: 2, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        // h2's lab-a 2.0 breaks what the check looks at, on h2 only.
        try rollout.hosts.root(2).publish(BoardAPTHosts.packages(gateInPreinst: false)
            + [TestPackage(name: "lab-a", version: "2.0", postinst: "touch '\(folder.path("broken-h2"))'")])
        try FileManager.default.createDirectory(atPath: folder.path("no-checks"), withIntermediateDirectories: true)
        #expect(await rollout.hosts.waitUntilServing())

        let result = try await FleetCommand.run(try rollout.installtop([
            "apt", "upgrade", "--yes", "--parallel", "1", "--confirm", "10m", "--confirm-by-login", "--revert-on-regression",
            "--check", "test ! -e '\(folder.path("broken-"))'$(hostname)", "--checks-dir", folder.path("no-checks"),
        ]), timeout: .seconds(400))
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("h1: run "), "\(result.stdout)")
        #expect(result.stdout.contains("h1: a fresh ssh login works: run "), "\(result.stdout)")
        #expect(result.stdout.contains("h1: upgraded"), "\(result.stdout)")
        #expect(result.stdout.contains("h2: failed: "), "\(result.stdout)")
        #expect(result.stdout.contains("regressed"), "h2's check named: \(result.stdout)")

        #expect(await Self.waitForWindow(rollout, host: 1, state: "confirmed"))
        #expect(try rollout.labA(onHost: 1) == "ii 2.0")
        // h2's engine reverts it by itself: the kept 1.0 back, recorded with the regression.
        #expect(await Self.waitForWindow(rollout, host: 2, state: "reverted"), "\(rollout.hosts.engines[1].stderr)")
        #expect(try rollout.labA(onHost: 2) == "ii 1.0")
        for host in 1...2 { #expect(try rollout.hosts.root(host).audit().isEmpty) }
        let h2 = try #require(try await Self.window(rollout, host: 2))
        let regressions = h2["regressions"] as? [[String: Any]] ?? []
        #expect(regressions.contains { ($0["check"] as? String)?.contains("broken-") == true }, "\(h2)")
        #expect(rollout.hosts.engines[1].stderr.contains("reverting it"), "\(rollout.hosts.engines[1].stderr)")
    }

    @Test("apt upgrade --host --confirm 3s and nobody keeps it: exit 0 once armed, then the host's engine undoes it at the deadline (lab-a back at 1.0, recorded reverted)")
    func deadlinePassesOnTheHost() async throws {
        let rollout = try RolloutHosts(count: 1, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        try FileManager.default.createDirectory(atPath: folder.path("no-checks"), withIntermediateDirectories: true)
        #expect(await rollout.hosts.waitUntilServing())
        let result = try await FleetCommand.run(try rollout.installtop([
            "apt", "upgrade", "--yes", "--confirm", "3s", "--checks-dir", folder.path("no-checks"),
        ]), timeout: .seconds(300))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("armed: kept only if confirmed by"), "\(result.stdout)")
        #expect(await Self.waitForWindow(rollout, host: 1, state: "reverted"), "\(rollout.hosts.engines[0].stderr)")
        #expect(try rollout.labA(onHost: 1) == "ii 1.0")
        #expect(try rollout.hosts.root(1).audit().isEmpty)
        let window = try #require(try await Self.window(rollout, host: 1))
        #expect((window["reason"] as? String)?.contains("no confirmation by its deadline") == true, "\(window)")
    }

    @Test("status --host lists the host's armed run; confirm --host h1 --run N from the admin machine: --extend moves the host's deadline, a confirmation keeps it, a second is refused (exit 1)")
    func confirmedFromTheAdminMachine() async throws {
        let rollout = try RolloutHosts(count: 1, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        try FileManager.default.createDirectory(atPath: folder.path("no-checks"), withIntermediateDirectories: true)
        #expect(await rollout.hosts.waitUntilServing())
        let upgraded = try await FleetCommand.run(try rollout.installtop([
            "apt", "upgrade", "--yes", "--confirm", "10m", "--checks-dir", folder.path("no-checks"),
        ]), timeout: .seconds(300))
        #expect(upgraded.status == 0, "\(upgraded.stdout)\(upgraded.stderr)")
        let armed = try #require(try await Self.window(rollout, host: 1))
        let run = try #require(upgraded.stdout.split(separator: " ").drop { $0 != "run" }.dropFirst().first.flatMap { Int($0) },
                               "\(upgraded.stdout)")
        // status --host lists it, as local status does.
        let status = try await FleetCommand.run(try rollout.installtop(["status"]), timeout: .seconds(120))
        #expect(status.stdout.contains("run \(run): armed: confirm by") && status.stdout.contains("confirm --host h1 --run \(run)"),
                "\(status.stdout)\(status.stderr)")
        let statusJSON = try await FleetCommand.run(try rollout.installtop(["status", "--json"]), timeout: .seconds(120))
        #expect(statusJSON.stdout.contains("\"armed\":[{") && statusJSON.stdout.contains("\"run\":\(run)"), "\(statusJSON.stdout)")
        let extended = try await FleetCommand.run(try rollout.installtop(["confirm", "--run", String(run), "--extend", "20m"]),
                                                  timeout: .seconds(120))
        #expect(extended.status == 0 && extended.stdout.contains("h1: run \(run): deadline moved to"), "\(extended.stdout)\(extended.stderr)")
        let moved = try #require(try await Self.window(rollout, host: 1))
        #expect(moved["deadline"] as? String != armed["deadline"] as? String)
        let kept = try await FleetCommand.run(try rollout.installtop(["confirm", "--run", String(run)]), timeout: .seconds(120))
        #expect(kept.status == 0 && kept.stdout.contains("h1: run \(run): confirmed, it stays"), "\(kept.stdout)\(kept.stderr)")
        #expect(await Self.waitForWindow(rollout, host: 1, state: "confirmed"))
        let again = try await FleetCommand.run(try rollout.installtop(["confirm", "--run", String(run)]), timeout: .seconds(120))
        #expect(again.status == 1 && again.stderr.contains("confirmed already"), "\(again.stdout)\(again.stderr)")
        #expect(try rollout.labA(onHost: 1) == "ii 2.0")
    }

    @Test("the board: W arms U with 5 minutes; h1's row counts down and K keeps it (confirmed); a board started with --confirm 5m --confirm-by-login keeps h2's run by a fresh ssh login by itself")
    func boardKeepsArmedHosts() async throws {
        let rollout = try RolloutHosts(count: 2, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        let hosts = rollout.hosts
        #expect(await hosts.waitUntilServing())
        // A board of h1 alone: U upgrades the one host there is, whatever the selection follows.
        do {
            let tmux = try BoardScreen.attach(["h1"], fleet: hosts.fleet, folder: hosts.folder, width: 160, height: 40)
            defer { tmux.close() }
            await tmux.waitForScreen("h1 idle") { $0.contains("1 host · 1 idle") }
            tmux.send("W")
            await tmux.waitForScreen("the window in the header") { $0.contains("confirm 5m") }
            tmux.send("U")
            let dialog = await tmux.waitForScreen("h1's plan, armed") { screen in
                screen.contains("[x] h1 · 1 to upgrade") && screen.contains("unless kept within 5m")
            }
            #expect(dialog != nil, "\(tmux.capture())")
            tmux.send("y")
            let counting = await tmux.waitForScreen("h1's row counts down") { BoardScreen.row("h1", in: $0).contains("armed 4m") }
            #expect(counting != nil, "\(tmux.capture())")
            tmux.send("K")
            let kept = await tmux.waitForScreen("h1 kept") { BoardScreen.row("h1", in: $0).contains("confirmed") }
            #expect(kept != nil, "\(tmux.capture())")
            #expect(await Self.waitForWindow(rollout, host: 1, state: "confirmed"))
            tmux.send("q")
        }
        // A board of h2 started armed and keeping by login.
        let binary = try EndToEndFolder.binary()
        let attach = hosts.fleet.controllerCommand([binary, "attach", "--host", "h2", "--confirm", "5m", "--confirm-by-login",
                                                    "--ssh-config", hosts.fleet.sshConfigPath, "--remote-command", "\(binary) bridge"])
        let tmux = try TmuxSession(width: 160, height: 40, home: hosts.folder.url,
                                   command: attach.map { "'\($0)'" }.joined(separator: " ") + " 2> '\(hosts.folder.path("attach2.err"))'; sleep 3600")
        defer { tmux.close() }
        await tmux.waitForScreen("h2 idle, armed by login") { $0.contains("1 host · 1 idle") && $0.contains("confirm 5m by login") }
        tmux.send("U")
        await tmux.waitForScreen("h2's plan") { $0.contains("[x] h2 · 1 to upgrade") }
        tmux.send("y")
        let byLogin = await tmux.waitForScreen("h2 kept by a fresh login") { BoardScreen.row("h2", in: $0).contains("confirmed") }
        #expect(byLogin != nil, "\(tmux.capture())")
        #expect(await Self.waitForWindow(rollout, host: 2, state: "confirmed"))
        #expect(try rollout.labA(onHost: 1) == "ii 2.0")
        #expect(try rollout.labA(onHost: 2) == "ii 2.0")
        tmux.send("q")
    }
}
