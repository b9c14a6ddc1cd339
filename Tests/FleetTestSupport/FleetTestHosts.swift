import Foundation
import Glibc
import Synchronization

/// Test hosts for Ansible on this machine (Documentation/FLEET-FACTS.md): a controller namespace with a bridge
/// (10.77.0.1/24) and one namespace per host (`h1` at 10.77.0.11 …), each with its hostname, a
/// private tmpfs /run and its own sshd taking root's generated key. There is no default route
/// anywhere, so nothing leaves the namespaces. Run ansible inside `controllerNamespace` with
/// `ansibleEnvironment` and `inventoryPath`.
///
/// `tearDown()` (also run by `deinit`) ends every process in the namespaces, deletes them and
/// the files. Names carry a random run id (`itop-<id>-h1`) and the run's folder records the
/// owning test process, so that setup removes what a killed test process left behind.
public final class FleetTestHosts: Sendable {
    /// The hosts, `hosts[0]` being `h1`.
    public let hosts: [FleetHost]
    /// Where ansible runs: `ip netns exec <controllerNamespace> ansible-playbook …`.
    public let controllerNamespace: String
    /// The address of the controller on the bridge.
    public let controllerAddress = "10.77.0.1"
    /// `itop-<id>-`: every namespace of this fleet starts with it.
    public let namespacePrefix: String
    /// The run's folder under /tmp (keys, configurations, logs, ansible's sockets).
    public let directory: String
    /// An INI inventory naming `h1`…`hN` with `ansible_host`, `ansible_user=root`, the key,
    /// `ansible_ssh_common_args='-F <ssh_config>'` and `/usr/bin/python3`.
    public let inventoryPath: String
    /// For `ssh -F <sshConfigPath> h1` from the controller namespace.
    public let sshConfigPath: String
    /// Variables for ansible: `ANSIBLE_CONFIG` (this fleet's `ansible.cfg`), `ANSIBLE_HOME`,
    /// `ANSIBLE_SSH_CONTROL_PATH_DIR` and `ANSIBLE_LOCAL_TEMP` in the run's folder (not
    /// ~/.ansible), no colours, a UTF-8 locale, and the run's marker.
    public let ansibleEnvironment: [String: String]
    /// How long `init` took, from the first check to every sshd answering.
    public let setupDuration: Duration

    private let run: FleetRun
    /// Whether each sshd configuration includes its host's drop-in folder (`sshd(host:)`).
    private let sshdDropIns: Bool
    private let holderPIDs: [pid_t]
    private let processes: Mutex<FleetProcesses>

    /// Makes the namespaces, keys and configurations, starts every sshd and returns once each
    /// host takes an ssh login from the controller. On failure everything made is removed.
    /// Also removes stale fleets, whose test process is gone.
    /// - Parameter sshdDropIns: each host's sshd configuration includes a drop-in folder of the
    ///   host's own and writes a pid file, so that a test's package can break and restart it as
    ///   an upgrade of openssh-server's configuration would (`sshd(host:)`).
    /// - Throws: `FleetTestError` naming what is missing (root, iproute2, openssh-server …) or
    ///   which host did not come up, with its sshd's log.
    public init(count: Int, sshdDropIns: Bool = false) throws {
        precondition((1...200).contains(count), "a fleet has 1 to 200 hosts")
        let started = ContinuousClock.now
        let tools = try FleetTools.find()
        _ = FleetRun.removeStale(tools: tools)
        let run = try FleetRun.create(tools: tools)
        let hosts = (1...count).map { index in
            FleetHost(index: index, name: "h\(index)", namespace: run.namespace("h\(index)"), address: "10.77.0.\(10 + index)")
        }
        let controller = run.namespace("ctl")
        let files = FleetFiles(directory: run.directory)
        let environment = ["ITOP_FLEET_RUN": run.id]
        var holders: [FleetChild] = []
        var sshds: [FleetChild] = []
        do {
            try files.generateKeys(for: hosts, tools: tools)
            try files.write(for: hosts, runID: run.id, withDropIns: sshdDropIns)
            try FleetCommand.check([tools.shell, "-ec", Self.networkScript(controller: controller, hosts: hosts, ip: tools.ip)],
                                   environment: environment, timeout: .seconds(60))
            let deadline = ContinuousClock.now + .seconds(30)
            holders = try hosts.map { try Self.startHolder($0, files: files, tools: tools, environment: environment) }
            try Self.waitForHolders(hosts, holders, files: files, deadline: deadline)
            sshds = try zip(hosts, holders).map { host, holder in
                try FleetChild([tools.nsenter, "--target", "\(holder.pid)", "--mount", "--uts", "--net",
                                tools.sshd, "-D", "-f", files.sshdConfig(host), "-E", files.sshdLog(host)],
                               environment: environment, stdoutPath: files.hostDirectory(host) + "/sshd.out",
                               stderrPath: files.hostDirectory(host) + "/sshd.err")
            }
            try Self.waitForListening(hosts, sshds, files: files, deadline: deadline)
            try Self.waitForLogins(hosts, controller: controller, files: files, tools: tools, environment: environment,
                                   deadline: deadline)
        } catch {
            let problems = run.remove()
            for child in holders + sshds { child.stop(grace: .seconds(1)) }
            guard problems.isEmpty else { throw FleetTestError("\(error)\nand its cleanup: \(problems)") }
            throw error
        }
        self.run = run
        self.sshdDropIns = sshdDropIns
        self.hosts = hosts
        controllerNamespace = controller
        namespacePrefix = run.namespacePrefix
        directory = run.directory
        inventoryPath = files.inventory
        sshConfigPath = files.sshConfig
        ansibleEnvironment = environment.merging([
            "ANSIBLE_CONFIG": files.ansibleConfig, "ANSIBLE_HOME": files.ansibleHome,
            "ANSIBLE_SSH_CONTROL_PATH_DIR": files.controlPathDirectory, "ANSIBLE_LOCAL_TEMP": files.ansibleLocalTemp,
            "ANSIBLE_NOCOLOR": "1", "LC_ALL": "C.UTF-8",
        ]) { _, new in new }
        holderPIDs = holders.map(\.pid)
        processes = Mutex(FleetProcesses(holders: holders, sshds: sshds))
        setupDuration = ContinuousClock.now - started
    }

    deinit {
        tearDown()
    }

    /// `arguments` run inside the controller namespace: `ip netns exec <ctl> arguments…`.
    /// What a program that runs ansible-playbook itself (installtop) needs: `ansibleEnvironment`
    /// with the toolchain's folder first on `PATH`.
    /// - Throws: `AnsibleToolchainMissing` when there is no ansible-playbook.
    public func environmentWithAnsible() throws -> [String: String] {
        let toolchain = try AnsibleToolchain.locate()
        var environment = ansibleEnvironment
        environment["PATH"] = (toolchain.playbook as NSString).deletingLastPathComponent + ":"
            + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin")
        return environment
    }

    /// How host `host`'s (1 for h1) sshd runs: its configuration, drop-in folder, pid file, log
    /// and the command that starts it again. A listener a test's script started in place of the
    /// harness's is not tracked by `stopSSHD`/`startSSHD`, but it is in the host's namespace,
    /// which `stopSSHD` and `tearDown` empty.
    /// - Throws: `FleetTestError` for a fleet made without `sshdDropIns` (its sshd has no pid
    ///   file to restart it by) or a host it does not have.
    public func sshd(host: Int) throws -> FleetHostSSHD {
        guard sshdDropIns else { throw FleetTestError("the fleet was made without sshdDropIns: its sshd has no drop-in folder or pid file") }
        let fleetHost = hosts[try index(host)]
        let files = FleetFiles(directory: directory)
        return FleetHostSSHD(executable: run.tools.sshd, configuration: files.sshdConfig(fleetHost),
                             dropInFolder: files.sshdDropInFolder(fleetHost), pidFile: files.sshdPidFile(fleetHost),
                             log: files.sshdLog(fleetHost))
    }

    /// The command line, to run on this machine, of a fresh ssh login from the controller
    /// namespace to host `host` (1 for h1) that runs `remoteCommand` there: the fleet's
    /// ssh_config, and no connection shared with another ssh (`ControlMaster no`,
    /// `ControlPath none`), so that each one proves the host's sshd takes a new login.
    public func sshCommand(toHost host: Int, _ remoteCommand: String) throws -> [String] {
        let name = hosts[try index(host)].name
        return controllerCommand([run.tools.ssh, "-F", sshConfigPath, "-o", "ControlMaster=no", "-o", "ControlPath=none",
                                  name, remoteCommand])
    }

    /// Whether `path` exists on every host (in its own filesystem view: its private `/run`).
    public func everyHostHas(_ path: String) -> Bool {
        hosts.allSatisfy { host in (try? run(onHost: host.index, "test -e '\(path)'").status) == 0 }
    }

    public func controllerCommand(_ arguments: [String]) -> [String] {
        [run.tools.ip, "netns", "exec", controllerNamespace] + arguments
    }

    /// Runs `arguments` (`arguments[0]` an absolute path) inside the controller namespace and
    /// waits for it.
    /// - Parameter environment: added to the test runner's, e.g. `ansibleEnvironment`.
    public func runInController(_ arguments: [String], environment: [String: String] = [:],
                                timeout: Duration = .seconds(300)) throws -> FleetCommand {
        try FleetCommand.run(controllerCommand(arguments), environment: environment.merging(["ITOP_FLEET_RUN": run.id]) { _, new in new },
                             timeout: timeout)
    }

    /// Runs `command` with /bin/sh inside host `host` (1 for h1) as its sshd's sessions see it:
    /// its network, hostname and private /run (`nsenter` into the host's holder). Works after
    /// `stopSSHD(host:)` too.
    public func run(onHost host: Int, _ command: String, timeout: Duration = .seconds(180)) throws -> FleetCommand {
        let holder = try processes.withLock { processes in
            guard !processes.tornDown else { throw FleetTestError("the fleet is torn down") }
            return holderPIDs[try index(host)]
        }
        return try FleetCommand.run(
            [run.tools.nsenter, "--target", "\(holder)", "--mount", "--uts", "--net", run.tools.shell, "-c", command],
            environment: ["ITOP_FLEET_RUN": run.id], timeout: timeout)
    }

    /// The command line that runs `arguments` (`arguments[0]` an absolute path) inside host
    /// `host` (1 for h1) as its sshd's sessions see it, for a process the test starts and
    /// keeps (an `installtop serve` of the host's own): `nsenter` execs it, so the started
    /// process's pid is the program's. Teardown ends it with the host's other processes.
    public func command(onHost host: Int, _ arguments: [String]) throws -> [String] {
        let holder = try processes.withLock { processes in
            guard !processes.tornDown else { throw FleetTestError("the fleet is torn down") }
            return holderPIDs[try index(host)]
        }
        return [run.tools.nsenter, "--target", "\(holder)", "--mount", "--uts", "--net"] + arguments
    }

    /// Makes host `host` (1 for h1) unreachable: its sshd and every session it started (an ssh
    /// ControlPersist master would otherwise keep reaching it) get SIGTERM, SIGKILL after 5 s.
    /// The host itself stays for `run(onHost:_:)`.
    public func stopSSHD(host: Int) throws {
        let position = try index(host)
        let left = try processes.withLock { processes in
            guard !processes.tornDown else { throw FleetTestError("the fleet is torn down") }
            processes.sshds[position]?.stop()
            processes.sshds[position] = nil
            return FleetProcessTable.endAll(inNamespaces: [hosts[position].namespace], sparing: [holderPIDs[position]], ip: run.tools.ip)
        }
        guard left.isEmpty else { throw FleetTestError("h\(host): processes \(left) survived SIGKILL") }
    }

    /// Starts host `host`'s sshd again after `stopSSHD(host:)` (the host comes back) and
    /// returns once it takes a login from the controller; an sshd that runs is left alone.
    /// - Throws: `FleetTestError` when it does not come up within 60 s, with its log.
    public func startSSHD(host: Int) throws {
        let position = try index(host)
        let fleetHost = hosts[position]
        let files = FleetFiles(directory: directory)
        let environment = ["ITOP_FLEET_RUN": run.id]
        let sshd = try processes.withLock { processes -> FleetChild? in
            guard !processes.tornDown else { throw FleetTestError("the fleet is torn down") }
            guard processes.sshds[position] == nil else { return nil }
            let sshd = try FleetChild([run.tools.nsenter, "--target", "\(holderPIDs[position])", "--mount", "--uts", "--net",
                                       run.tools.sshd, "-D", "-f", files.sshdConfig(fleetHost), "-E", files.sshdLog(fleetHost)],
                                      environment: environment, stdoutPath: files.hostDirectory(fleetHost) + "/sshd.out",
                                      stderrPath: files.hostDirectory(fleetHost) + "/sshd.err")
            processes.sshds[position] = sshd
            return sshd
        }
        guard let sshd else { return }
        let deadline = ContinuousClock.now + .seconds(60)
        try Self.waitForListening([fleetHost], [sshd], files: files, deadline: deadline)
        try Self.waitForLogins([fleetHost], controller: controllerNamespace, files: files, tools: run.tools, environment: environment,
                               deadline: deadline)
    }

    /// The live processes this fleet started that are still there (by its marker in their
    /// environment or its folder in their command line): none after `tearDown()`.
    public func leftoverProcesses() -> [pid_t] {
        FleetProcessTable.live(withMarker: run.marker, orPath: directory)
    }

    /// Ends every process in the fleet's namespaces (SIGTERM, SIGKILL to stragglers after 5 s),
    /// sshds, holders and ansible's ssh masters among them, deletes the namespaces and the
    /// run's folder. Idempotent; problems are printed, since `deinit` calls it too.
    /// - Returns: how long it took, zero when the fleet was already torn down.
    @discardableResult
    public func tearDown() -> Duration {
        processes.withLock { processes in
            guard !processes.tornDown else { return .zero }
            processes.tornDown = true
            let started = ContinuousClock.now
            let problems = run.remove()
            // They are gone with their namespaces; this reaps them.
            for child in processes.holders + processes.sshds.compactMap({ $0 }) { child.stop(grace: .seconds(1)) }
            if !problems.isEmpty {
                FileHandle.standardError.write(Data("itop fleet \(run.id): teardown left \(problems)\n".utf8))
            }
            return ContinuousClock.now - started
        }
    }

    /// Removes the fleets whose test process is gone (killed before its teardown); `init` does
    /// it too. Returns the namespaces removed.
    public static func removeStaleRuns() throws -> [String] {
        FleetRun.removeStale(tools: try FleetTools.find())
    }

    /// Makes a fleet's folder and its owner file (this process), with no namespace yet, as
    /// `init` does first; returns the fleet's id (its folder is `/tmp/itop-fleet-<id>`, its
    /// namespaces `itop-<id>-…`). For tests of the sweep: a sweep leaves it alone while its
    /// owner runs.
    public static func makeRunFolder() throws -> String {
        try FleetRun.create(tools: FleetTools.find()).id
    }

    // MARK: - Setup

    private func index(_ host: Int) throws -> Int {
        guard hosts.indices.contains(host - 1) else { throw FleetTestError("no host \(host): the fleet has h1…h\(hosts.count)") }
        return host - 1
    }

    /// One shell script for the links, so that a failure says which command failed (`set -e`).
    private static func networkScript(controller: String, hosts: [FleetHost], ip: String) -> String {
        var lines = [
            "\(ip) netns add \(controller)",
            "\(ip) -n \(controller) link set lo up",
            "\(ip) -n \(controller) link add br0 type bridge",
            "\(ip) -n \(controller) addr add 10.77.0.1/24 dev br0",
            "\(ip) -n \(controller) link set br0 up",
        ]
        for host in hosts {
            lines += [
                "\(ip) netns add \(host.namespace)",
                "\(ip) -n \(host.namespace) link set lo up",
                "\(ip) link add v-\(host.name) netns \(controller) type veth peer name eth0 netns \(host.namespace)",
                "\(ip) -n \(controller) link set v-\(host.name) master br0 up",
                "\(ip) -n \(host.namespace) addr add \(host.address)/24 dev eth0",
                "\(ip) -n \(host.namespace) link set eth0 up",
            ]
        }
        return lines.joined(separator: "\n")
    }

    /// The process that holds the host's UTS and mount namespaces (`ip netns exec` gives the
    /// mount namespace, `unshare --uts` the hostname) for as long as the host lives, so that
    /// its /run survives a stopped sshd. `ip`, `unshare` and `sh` each exec the next, so the
    /// child's pid is the holder's.
    private static func startHolder(_ host: FleetHost, files: FleetFiles, tools: FleetTools,
                                    environment: [String: String]) throws -> FleetChild {
        let script = """
            hostname \(host.name)
            mount -t tmpfs -o mode=0755,size=64m itop-run-\(host.name) /run
            mkdir -p /run/sshd
            mkdir -m 0700 /run/root-home
            : > '\(files.readyFile(host))'
            exec sleep infinity
            """
        return try FleetChild([tools.ip, "netns", "exec", host.namespace, tools.unshare, "--uts", tools.shell, "-ec", script],
                              environment: environment, stdoutPath: files.hostDirectory(host) + "/holder.out",
                              stderrPath: files.hostDirectory(host) + "/holder.err")
    }

    private static func waitForHolders(_ hosts: [FleetHost], _ holders: [FleetChild], files: FleetFiles,
                                       deadline: ContinuousClock.Instant) throws {
        for (host, holder) in zip(hosts, holders) {
            let ready = FleetPolling.until(deadline) { holder.poll() != nil || access(files.readyFile(host), F_OK) == 0 }
            if let status = holder.poll() {
                throw FleetTestError("\(host.name): its namespace holder exited \(status): \(FleetCommand.read(files.hostDirectory(host) + "/holder.err"))")
            }
            guard ready else { throw FleetTestError("\(host.name): hostname and /run not set up in time") }
        }
    }

    /// Polls each sshd's /proc/PID/net/tcp (its namespace's sockets) for a socket listening on
    /// port 22 (0x0016, state 0A): no process to start per attempt.
    private static func waitForListening(_ hosts: [FleetHost], _ sshds: [FleetChild], files: FleetFiles,
                                         deadline: ContinuousClock.Instant) throws {
        for (host, sshd) in zip(hosts, sshds) {
            let listening = FleetPolling.until(deadline) {
                if sshd.poll() != nil { return true }
                let table = (try? String(contentsOfFile: "/proc/\(sshd.pid)/net/tcp", encoding: .utf8)) ?? ""
                return table.split(separator: "\n").contains { line in
                    let fields = line.split(separator: " ")
                    return fields.count > 3 && fields[1].hasSuffix(":0016") && fields[3] == "0A"
                }
            }
            let log = FleetCommand.read(files.sshdLog(host)) + FleetCommand.read(files.hostDirectory(host) + "/sshd.err")
            if let status = sshd.poll() { throw FleetTestError("\(host.name): sshd exited \(status): \(log)") }
            guard listening else { throw FleetTestError("\(host.name): sshd not listening in time: \(log)") }
        }
    }

    /// A real login (`ssh h1 true` from the controller namespace) to every host at once,
    /// retrying the ones that fail until the deadline: proves the keys, known_hosts and routes.
    private static func waitForLogins(_ hosts: [FleetHost], controller: String, files: FleetFiles, tools: FleetTools,
                                      environment: [String: String], deadline: ContinuousClock.Instant) throws {
        var pending = hosts
        var lastError: [String: String] = [:]
        while !pending.isEmpty {
            let attempts = try pending.map { host in
                let errPath = files.hostDirectory(host) + "/login.err"
                let child = try FleetChild([tools.ip, "netns", "exec", controller, tools.ssh, "-F", files.sshConfig, host.name, "true"],
                                           environment: environment, stdoutPath: "/dev/null", stderrPath: errPath)
                return (host, child, errPath)
            }
            var failed: [FleetHost] = []
            for (host, child, errPath) in attempts {
                let status = child.wait(until: deadline + .seconds(10)) ?? child.stop(grace: .seconds(1))
                if status != 0 {
                    failed.append(host)
                    lastError[host.name] = "exit \(status): \(FleetCommand.read(errPath))"
                }
            }
            pending = failed
            if !pending.isEmpty && ContinuousClock.now >= deadline {
                let details = pending.map { "\($0.name) \(lastError[$0.name] ?? ""): sshd log: \(FleetCommand.read(files.sshdLog($0)))" }
                throw FleetTestError("no ssh login in time to \(details.joined(separator: "; "))")
            }
        }
    }
}
