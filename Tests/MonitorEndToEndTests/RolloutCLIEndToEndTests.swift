import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing

/// `installtop apt upgrade --host … [--yes] [--parallel N]` from the controller namespace over
/// namespace hosts, each with its own sshd, `serve` and private apt root (`RolloutHosts`),
/// compared with dpkg's database in each root afterwards.
@Suite("apt upgrade across hosts end to end", .serialized,
       .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
struct RolloutCLIEndToEndTests {
    @Test("without --yes off a terminal each host's plan is printed and declined (nothing runs, exit 1); with --yes --parallel 2 h2's failure stops h3 from starting while h1 runs to its end")
    func upgradeAcrossHosts() async throws {
        let rollout = try RolloutHosts(count: 3, failing: 2, gated: [1])
        defer { rollout.tearDown() }
        #expect(await rollout.hosts.waitUntilServing())

        let asked = try await FleetCommand.run(try rollout.installtop(["apt", "upgrade"]), timeout: .seconds(300))
        #expect(asked.status == 1, "\(asked.stdout)\(asked.stderr)")
        for host in 1...3 {
            #expect(asked.stdout.contains("h\(host): 1 to upgrade"), "\(asked.stdout)")
        }
        #expect(asked.stdout.contains("  upgrade lab-a 1.0 → 2.0"), "\(asked.stdout)")
        #expect(asked.stdout.contains("Abort."))
        for host in 1...3 {
            #expect(try rollout.labA(onHost: host) == "ii 1.0")
            // Declined: gone from its engine's queue without running.
            #expect(await EndToEndFolder.eventually(timeout: .seconds(20)) { (try? rollout.upgradeStates(onHost: host).isEmpty) == true },
                    "h\(host): \((try? rollout.upgradeStates(onHost: host)) ?? [])")
        }

        let command = try rollout.installtop(["apt", "upgrade", "--yes", "--parallel", "2"])
        async let run = FleetCommand.run(command, timeout: .seconds(300))
        // h1 waits in its postinst while h2 fails: h3 must not start.
        let h2Failed = await EndToEndFolder.eventually {
            (try? rollout.upgradeStates(onHost: 2)) == ["failed"]
        }
        #expect(h2Failed)
        #expect(try rollout.upgradeStates(onHost: 1) == ["running"])
        #expect(try rollout.upgradeStates(onHost: 3) == ["queued"], "h3 held, not started")
        rollout.openUpgradeGate(onHost: 1)
        let result = try await run
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("h1: upgraded"), "\(result.stdout)")
        #expect(result.stdout.contains("h2: failed"), "\(result.stdout)")
        #expect(!result.stdout.contains("h3: starting"), "\(result.stdout)")
        #expect(result.stderr.contains("h2 failed; not started (their plans declined): h3"), "\(result.stderr)")
        #expect(try rollout.labA(onHost: 1) == "ii 2.0")
        #expect(try rollout.labA(onHost: 2) != "ii 2.0")
        #expect(try rollout.labA(onHost: 3) == "ii 1.0")
        #expect(try rollout.hosts.root(1).audit().isEmpty)
        #expect(try rollout.hosts.root(3).audit().isEmpty)
        #expect(await EndToEndFolder.eventually(timeout: .seconds(20)) { (try? rollout.upgradeStates(onHost: 3).isEmpty) == true },
                "h3's plan declined: \((try? rollout.upgradeStates(onHost: 3)) ?? [])")
    }

    @Test("apt full-upgrade --hosts: lab-a 2.0 needs a new package, which apt upgrade holds back and full-upgrade installs, as dpkg says after")
    func fullUpgradeAcrossHosts() async throws {
        let hosts = try BoardAPTHosts(count: 1, history: false)
        defer { hosts.tearDown() }
        hosts.openGate(onHost: 1)
        let root = hosts.root(1)
        try root.aptGet(["install", "-y", "lab-a"], check: true)
        try root.publish(BoardAPTHosts.packages(gateInPreinst: false) + [
            TestPackage(name: "lab-new"), TestPackage(name: "lab-a", version: "2.0", depends: "lab-new"),
        ])
        #expect(await hosts.waitUntilServing())
        let binary = try EndToEndFolder.binary()
        func installtop(_ arguments: [String]) -> [String] {
            hosts.fleet.controllerCommand([binary] + arguments + ["--host", hosts.names[0], "--ssh-config", hosts.fleet.sshConfigPath,
                                                                  "--remote-command", "\(binary) bridge"])
        }
        let upgrade = try await FleetCommand.run(installtop(["apt", "upgrade"]), timeout: .seconds(300))
        #expect(!upgrade.stdout.contains("lab-new"), "apt upgrade installs nothing new: \(upgrade.stdout)")
        let full = try await FleetCommand.run(installtop(["apt", "full-upgrade", "--yes"]), timeout: .seconds(300))
        #expect(full.status == 0, "\(full.stdout)\(full.stderr)")
        #expect(full.stdout.contains("  install lab-new 1.0"), "\(full.stdout)")
        #expect(full.stdout.contains("  upgrade lab-a 1.0 → 2.0"), "\(full.stdout)")
        #expect(full.stdout.contains("\(hosts.names[0]): upgraded"), "\(full.stdout)")
        let states = try root.states()
        #expect(states["lab-a"].map { "\($0.status) \($0.version)" } == "ii 2.0")
        #expect(states["lab-new"].map { "\($0.status) \($0.version)" } == "ii 1.0")
        #expect(try root.audit().isEmpty)
    }
}
