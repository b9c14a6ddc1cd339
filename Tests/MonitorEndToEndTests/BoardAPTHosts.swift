import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing

/// Namespace test hosts (Documentation/FLEET-FACTS.md) for the board's apt tests. Each host has its own private apt
/// root publishing a chain, lab-d → lab-c → lab-b → lab-a (each depends on the next), whose
/// lab-b postinst (or preinst) says it started and then waits for the root's gate, and its own `installtop
/// serve` on the default socket in the host's /run with that root. What runs there is the
/// test's: an apt job submitted to the host's engine, or a raw `apt-get` seen through the hooks.
final class BoardAPTHosts {
    let fleet: FleetTestHosts
    let folder: EndToEndFolder
    /// Host h1's root first.
    let roots: [APTTestRoot]
    /// Each host's `installtop serve`, h1's first.
    private(set) var engines: [InstalltopChild]
    private var aptGets: [Int: InstalltopChild] = [:]
    private var tornDown = false

    /// The chain every root publishes; apt unpacks it from lab-a up, one package after the
    /// other, then configures it in the same order, and lab-b waits at its gate: in its postinst
    /// (dpkg's configure phase, every package unpacked by then), or with `gateInPreinst` in its
    /// preinst (before its unpack: lab-a unpacked, lab-c and lab-d not begun).
    static func packages(gateInPreinst: Bool) -> [TestPackage] {
        let waitAtTheGate = """
            touch "$DPKG_ROOT/gate-reached"
            while [ ! -e "$DPKG_ROOT/gate-open" ]; do sleep 0.05; done
            """
        return [
            TestPackage(name: "lab-a"),
            gateInPreinst ? TestPackage(name: "lab-b", depends: "lab-a", preinst: waitAtTheGate)
                : TestPackage(name: "lab-b", depends: "lab-a", postinst: waitAtTheGate),
            TestPackage(name: "lab-c", depends: "lab-b"),
            TestPackage(name: "lab-d", depends: "lab-c"),
        ]
    }

    /// `count` hosts, each with its root and its engine started with `serveArguments` added
    /// (`waitUntilServing` waits for them to listen); with `history`, each engine keeps its
    /// history in the folder (`hN-history.db`), so that its runs can be undone.
    init(count: Int, serveArguments: [String] = [], gateInPreinst: Bool = false, history: Bool = false) throws {
        let folder = try EndToEndFolder()
        let fleet: FleetTestHosts
        do {
            fleet = try FleetTestHosts(count: count)
        } catch {
            folder.remove()
            throw error
        }
        var roots: [APTTestRoot] = []
        var engines: [InstalltopChild] = []
        do {
            for host in 1...count {
                let root = try APTTestRoot(folder: folder.path("apt-h\(host)"))
                roots.append(root)
                try root.publish(Self.packages(gateInPreinst: gateInPreinst))
                engines.append(try fleet.serve(onHost: host, apt: root, folder: folder, extra: serveArguments,
                                               history: history ? folder.path("h\(host)-history.db") : nil))
            }
        } catch {
            // SIGTERM to each engine (SIGKILL after 5 s) before the namespaces go.
            engines.removeAll()
            fleet.tearDown()
            folder.remove()
            throw error
        }
        self.fleet = fleet
        self.folder = folder
        self.roots = roots
        self.engines = engines
    }

    deinit {
        tearDown()
    }

    /// The host names, `h1`… in order.
    var names: [String] { (1...roots.count).map { "h\($0)" } }

    /// Whether every engine says it listens (polled, for up to 180 s).
    func waitUntilServing() async -> Bool {
        for engine in engines {
            guard await EndToEndFolder.eventually({ engine.stderr.contains("serving on \(FleetTestHosts.engineSocket)") }) else { return false }
        }
        return true
    }

    /// Queues on host `host`'s engine (`installtop submit` run there) the apt job `name`:
    /// `apt install PACKAGE` in the host's root.
    func submitInstall(_ package: String, onHost host: Int, name: String) throws {
        let manifest = folder.path("h\(host)-apt.yaml")
        try folder.write("h\(host)-apt.yaml", """
            jobs:
              - name: \(name)
                apt: {install: [\(package)], apt_config: \(root(host).configuration)}
            """)
        let submitted = try fleet.run(onHost: host, "'\(try EndToEndFolder.binary())' submit '\(manifest)' --yes --socket \(FleetTestHosts.engineSocket)")
        guard submitted.status == 0 else { throw EndToEndError("h\(host): submit exited \(submitted.status): \(submitted.stdout)\(submitted.stderr)") }
    }

    /// Installs the watch hooks into host `host`'s root (reporting to its engine's socket) and
    /// starts `apt-get ARGUMENTS` there by hand, in the host's namespaces, left running.
    func startObservedAptGet(_ arguments: [String], onHost host: Int) throws {
        let binary = try EndToEndFolder.binary()
        let hooks = try fleet.run(onHost: host, "'\(binary)' hooks install --apt-config '\(root(host).configuration)' --socket \(FleetTestHosts.engineSocket)")
        guard hooks.status == 0 else { throw EndToEndError("h\(host): hooks install exited \(hooks.status): \(hooks.stdout)\(hooks.stderr)") }
        let command = try fleet.command(onHost: host, ["/usr/bin/apt-get"] + arguments)
        aptGets[host] = try InstalltopChild(Array(command.dropFirst()), in: folder, environment: root(host).environment, executable: command[0])
    }

    /// The raw apt-get of host `host`: its exit status once it ended, with its output.
    func aptGetResult(onHost host: Int) -> (status: Int32?, output: String) {
        guard let aptGet = aptGets[host] else { return (nil, "no apt-get on h\(host)") }
        return (aptGet.poll(), aptGet.stdout + aptGet.stderr)
    }

    /// Whether host `host`'s lab-b postinst has started (and waits at the gate).
    func gateReached(onHost host: Int) -> Bool {
        access(root(host).root + "/gate-reached", F_OK) == 0
    }

    /// Lets host `host`'s lab-b postinst end.
    func openGate(onHost host: Int) {
        _ = FileManager.default.createFile(atPath: root(host).root + "/gate-open", contents: nil)
    }

    func root(_ host: Int) -> APTTestRoot { roots[host - 1] }

    /// Opens every gate (no dpkg waits forever), lets the raw apt-gets end (60 s at most),
    /// continues any stopped engine, ends the engines (SIGTERM: each aborts what it runs and
    /// exits; SIGKILL after 5 s), then the fleet's namespaces and processes, the roots and the
    /// folder. Idempotent.
    func tearDown() {
        guard !tornDown else { return }
        tornDown = true
        for host in 1...roots.count { openGate(onHost: host) }
        let deadline = ContinuousClock.now + .seconds(60)
        while aptGets.values.contains(where: { $0.poll() == nil }), ContinuousClock.now < deadline { usleep(20_000) }
        aptGets.removeAll()
        // An engine that ended before the teardown is a defect of the engine, whatever the test
        // looked at: its status and its words are recorded before the folder goes with them.
        for (index, engine) in engines.enumerated() {
            if let status = engine.poll() {
                Issue.record("h\(index + 1)'s installtop serve ended before the teardown with status \(status); its stderr:\n\(engine.stderr)")
            }
        }
        for engine in engines where engine.poll() == nil { kill(engine.pid, SIGCONT) }
        engines.removeAll()
        fleet.tearDown()
        for root in roots { root.remove() }
        folder.remove()
    }
}
