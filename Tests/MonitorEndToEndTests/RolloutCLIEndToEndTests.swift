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
}
