import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing

/// Issue 57's "a host whose upgrade breaks its sshd configuration: the board's automatic
/// confirmation fails, the host reverts, and ssh to it works again", across hosts
/// (Documentation/COMMIT-CONFIRMED.md, "Across hosts"): h1's own engine runs the armed upgrade
/// a rollout from the controller namespace submits over real ssh (`BrokenSSHDHost`);
/// `lab-sshd-tweak` 2.0's postinst leaves h1 without a listening sshd, so the run is not kept
/// by login, and h1's engine reverts it at the deadline by itself: 1.0's postinst mends sshd,
/// and a fresh login works again. The machine's packages are never touched (fingerprinted).
@Suite("Commit-confirmed across hosts: an upgrade that breaks the host's sshd", .serialized,
       .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
struct BrokenSSHDConfirmEndToEndTests {
    @Test("apt upgrade --host h1 --confirm 40s --confirm-by-login: 2.0 breaks h1's sshd, port 22 regresses, h1 failed and its run not kept (exit 1); h1's engine reverts it at the deadline (dpkg at 1.0, recorded reverted) and a fresh ssh login works again")
    func rolloutNotKeptAndRevertedByTheHost() async throws {
        let machine = HostPackageFingerprint()
        let host = try BrokenSSHDHost()
        defer { host.tearDown() }
        #expect(await host.waitUntilServing(), "\(host.engineLog)")
        let firstListener = try #require(host.listener, "the harness's sshd wrote no pid file")

        let binary = try EndToEndFolder.binary()
        let started = ContinuousClock.now
        let result = try await FleetCommand.run(host.fleet.controllerCommand([
            binary, "apt", "upgrade", "--host", "h1", "--ssh-config", host.fleet.sshConfigPath, "--remote-command", "\(binary) bridge",
            "--confirm", "40s", "--confirm-by-login", "--checks-dir", host.lab.checksFolder, "--yes",
        ]), timeout: .seconds(300))
        let output = "exit \(result.status) after \(ContinuousClock.now - started)\nstdout: \(result.stdout)\nstderr: \(result.stderr)\nengine: \(host.engineLog)"
        // The job itself succeeded: dpkg configured 2.0, whose postinst stopped the listener
        // and could not start sshd again.
        #expect(result.status == 1, "\(output)")
        #expect(result.stdout.contains("h1: run ") && result.stdout.contains(" armed: kept only if confirmed by "), "\(output)")
        #expect(result.stdout.contains("h1: run ") && result.stdout.contains(": regressed: listening TCP ports: "), "\(output)")
        #expect(result.stdout.contains("(gone: tcp/22"), "\(output)")
        #expect(result.stdout.contains("h1: failed: run ") && result.stdout.contains(" not kept by login: listening TCP ports: "), "\(output)")
        #expect(!result.stdout.contains("h1: upgraded") && !result.stdout.contains("a fresh ssh login works"), "\(output)")
        let log = host.sshdLog
        #expect(log.contains("Received signal 15; terminating.") && log.contains("Bad configuration option: LabSSHDTweak"), "\(log)")

        // h1's engine reverts it at the deadline, by itself: nothing reaches it meanwhile.
        let reverted = await host.waitForWindow("reverted", timeout: .seconds(180))
        let newest = reverted == nil ? try? await host.armedRun() : nil
        let run = try #require(reverted, "h1's run was not reverted: \(String(describing: newest))\nengine: \(host.engineLog)")
        let window = try #require(run["confirm"] as? [String: Any])
        #expect((window["reason"] as? String)?.contains("no confirmation by its deadline") == true, "\(window)")
        let regressions = window["regressions"] as? [[String: Any]] ?? []
        let ports = regressions.first { $0["check"] as? String == "listening TCP ports" }
        #expect((ports?["after"] as? String)?.contains("(gone: tcp/22)") == true, "\(regressions)")
        #expect(run["undoneBy"] != nil && window["revertRun"] != nil, "\(run)")
        #expect(try host.lab.states() == [SSHDTweakLab.package: "ii 1.0"])
        #expect(try host.lab.apt.audit().isEmpty)
        #expect(access(host.lab.dropIn, F_OK) != 0, "1.0's postinst removes the bad drop-in")

        // A fresh login (no shared connection) works again, to the listener 1.0's postinst
        // started in place of the harness's.
        let login = await host.freshLogin()
        #expect(login?.status == 0 && login?.stdout == "h1\n", "\(String(describing: login))\nsshd log: \(host.sshdLog)\nengine: \(host.engineLog)")
        let listener = host.listener
        #expect(listener != nil && listener != firstListener, "the listener was restarted: \(String(describing: listener))")
        #expect(machine.changes(since: HostPackageFingerprint()).isEmpty)
        host.tearDown()
        #expect(host.fleet.leftoverProcesses().isEmpty, "the sshd 1.0's postinst started goes with the fleet")
    }

    @Test("the board (attach --host h1 --confirm 1m --confirm-by-login, U, y): 2.0 breaks h1's sshd, the run is not kept by login (port 22 regressed), the board's link outlives sshd, its row ends reverted, then 2.0 pending again; dpkg at 1.0 and a fresh ssh login works again")
    func boardDoesNotKeepAndTheHostReverts() async throws {
        let machine = HostPackageFingerprint()
        let host = try BrokenSSHDHost()
        defer { host.tearDown() }
        #expect(await host.waitUntilServing(), "\(host.engineLog)")
        let binary = try EndToEndFolder.binary()
        let attach = host.fleet.controllerCommand([binary, "attach", "--host", "h1", "--confirm", "1m", "--confirm-by-login",
                                                   "--ssh-config", host.fleet.sshConfigPath, "--remote-command", "\(binary) bridge"])
        let tmux = try TmuxSession(width: 200, height: 40, home: host.folder.url,
                                   command: attach.map { "'\($0)'" }.joined(separator: " ") + " 2> '\(host.folder.path("attach.err"))'; sleep 3600")
        defer { tmux.close() }
        await tmux.waitForScreen("h1 idle, armed by login") { $0.contains("1 host · 1 idle") && $0.contains("confirm 1m by login") }
        tmux.send("U")
        await tmux.waitForScreen("h1's plan, armed") { $0.contains("[x] h1 · 1 to upgrade") }
        tmux.send("y")
        // The login is never tried for a run whose check regressed: the status line says why
        // it is not kept (it lives 30 s, the window 1m).
        let notKept = await tmux.waitForScreen("h1's run not kept by login") { screen in
            screen.contains("h1: run ") && screen.contains("is not kept by login: listening TCP ports: ")
        }
        #expect(notKept?.contains("(gone: tcp/22") == true, "\(tmux.capture())")
        // The board's link is the session sshd kept: the host's engine still tells it the
        // revert, at the deadline.
        let reverted = await tmux.waitForScreen("h1's row reverted") { BoardScreen.row("h1", in: $0).contains("reverted") }
        #expect(reverted != nil, "\(tmux.capture())\nattach: \(host.folder.read("attach.err") ?? "")\nengine: \(host.engineLog)")
        let run = await host.waitForWindow("reverted")
        let window = run?["confirm"] as? [String: Any]
        #expect((window?["reason"] as? String)?.contains("no confirmation by its deadline") == true, "\(String(describing: run))")
        #expect(try host.lab.states() == [SSHDTweakLab.package: "ii 1.0"])
        #expect(try host.lab.apt.audit().isEmpty)
        let login = await host.freshLogin()
        #expect(login?.status == 0 && login?.stdout == "h1\n", "\(String(describing: login))\nsshd log: \(host.sshdLog)\nengine: \(host.engineLog)")
        // The board catches up with the host: 2.0 is pending there again.
        let pendingAgain = await tmux.waitForScreen("h1's row: 2.0 pending again") { screen in
            let row = BoardScreen.row("h1", in: screen)
            return row.contains("1 pending") && !row.contains("recomputing")
        }
        #expect(pendingAgain != nil, "\(tmux.capture())")
        tmux.send("q")
        #expect(machine.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
