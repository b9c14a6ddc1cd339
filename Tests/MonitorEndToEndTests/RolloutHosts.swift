import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc

/// Namespace test hosts (`BoardAPTHosts`) ready for a rollout: each root has lab-a 1.0
/// installed and publishes lab-a 2.0, so that each engine's `apt upgrade` plans one upgrade.
/// Host `failing`'s 2.0 postinst fails; host `gated`'s 2.0 postinst waits for the root's
/// `upgrade-gate` (`openUpgradeGate`), so what the test looks at is still running when it looks.
final class RolloutHosts {
    let hosts: BoardAPTHosts

    /// With `history`, each engine keeps a history (`BoardAPTHosts`), so that its runs can be
    /// undone.
    init(count: Int, failing: Int?, gated: Set<Int>, history: Bool = false) throws {
        hosts = try BoardAPTHosts(count: count, history: history)
        do {
            for host in 1...count {
                // lab-b's gate (of the chain the roots publish) stays open: nothing waits there.
                hosts.openGate(onHost: host)
                let root = hosts.root(host)
                try root.aptGet(["install", "-y", "lab-a"], check: true)
                let postinst: String? = host == failing ? "echo 'lab-a 2.0: configuration refused' >&2; exit 1"
                    : gated.contains(host) ? #"while [ ! -e "$DPKG_ROOT/upgrade-gate" ]; do sleep 0.05; done"# : nil
                try root.publish(BoardAPTHosts.packages(gateInPreinst: false) + [TestPackage(name: "lab-a", version: "2.0", postinst: postinst)])
            }
        } catch {
            hosts.tearDown()
            throw error
        }
    }

    /// Lets host `host`'s lab-a 2.0 postinst end.
    func openUpgradeGate(onHost host: Int) {
        _ = FileManager.default.createFile(atPath: hosts.root(host).root + "/upgrade-gate", contents: nil)
    }

    /// The states of host `host`'s rollout jobs (`apt upgrade · …`) on its engine, asked there;
    /// the engine also shows the setup's own apt-get, observed, which is left out.
    func upgradeStates(onHost host: Int) throws -> [String] {
        try hosts.fleet.ownJobs(onHost: host).filter { ($0["name"] as? String)?.hasPrefix("apt upgrade") == true }
            .map { $0["state"] as? String ?? "?" }
    }

    /// lab-a's dpkg status and version in host `host`'s root (`ii 2.0`).
    func labA(onHost host: Int) throws -> String {
        guard let state = try hosts.root(host).states()["lab-a"] else { return "absent" }
        return "\(state.status) \(state.version)"
    }

    /// `installtop ARGUMENTS --host h1 … --ssh-config … --remote-command '… bridge'` from the
    /// controller namespace (for `FleetCommand.run`, which times it out and reaps it).
    func installtop(_ arguments: [String]) throws -> [String] {
        let binary = try EndToEndFolder.binary()
        return hosts.fleet.controllerCommand([binary] + arguments + hosts.names.flatMap { ["--host", $0] }
            + ["--ssh-config", hosts.fleet.sshConfigPath, "--remote-command", "\(binary) bridge"])
    }

    /// Opens every gate, then tears the hosts down (`BoardAPTHosts.tearDown`). Idempotent.
    func tearDown() {
        for host in 1...hosts.roots.count { openUpgradeGate(onHost: host) }
        hosts.tearDown()
    }
}
