import FleetTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// The fleet harness the Ansible driver's tests stand on (Documentation/FLEET-FACTS.md): hosts in network
/// namespaces with their own sshd, reachable by ansible from the controller namespace, one made
/// unreachable on demand, each with a private /run, and nothing left behind. Serialized: the
/// timings printed are the harness's, not those of fleets competing for the machine.
@Suite("Fleet test hosts", .serialized)
struct FleetHarnessTests {
    @Test("4 hosts come up with their hostnames and all answer `ansible -m ping all` run in the controller namespace")
    func fourHostsAnswerPing() throws {
        let ansible = try AnsibleToolchain.locate()
        let fleet = try FleetTestHosts(count: 4)
        defer { fleet.tearDown() }
        print("fleet: 4 hosts up and taking ssh logins in \(milliseconds(fleet.setupDuration))")

        for host in fleet.hosts {
            #expect(try fleet.run(onHost: host.index, "hostname").stdout == "\(host.name)\n")
        }
        let started = ContinuousClock.now
        let ping = try fleet.runInController([ansible.ansible, "-m", "ping", "all", "-i", fleet.inventoryPath],
                                             environment: fleet.ansibleEnvironment)
        print("fleet: ansible -m ping all on 4 hosts took \(milliseconds(ContinuousClock.now - started))")

        #expect(ping.status == 0, "\(ping.stdout)\(ping.stderr)")
        for host in fleet.hosts {
            #expect(ping.stdout.contains("\(host.name) | SUCCESS"), "\(ping.stdout)\(ping.stderr)")
        }
        print("fleet: 4 hosts torn down in \(milliseconds(fleet.tearDown()))")
    }

    @Test("After stopSSHD(host: 2), h2 is unreachable (also through ansible's ControlPersist master) and the others still answer")
    func stoppedHostIsUnreachable() throws {
        let ansible = try AnsibleToolchain.locate()
        let fleet = try FleetTestHosts(count: 3)
        defer { fleet.tearDown() }
        let command = [ansible.ansible, "-m", "ping", "all", "-i", fleet.inventoryPath]
        // A first ping leaves an ssh master per host: h2's must not keep it reachable.
        let first = try fleet.runInController(command, environment: fleet.ansibleEnvironment)
        try #require(first.status == 0, "\(first.stdout)\(first.stderr)")

        try fleet.stopSSHD(host: 2)

        let ping = try fleet.runInController(command, environment: fleet.ansibleEnvironment)
        #expect(ping.status == 4, "ansible's exit status for an unreachable host: \(ping.stdout)\(ping.stderr)")
        #expect(ping.stdout.contains("h2 | UNREACHABLE"), "\(ping.stdout)\(ping.stderr)")
        #expect(ping.stdout.contains("h1 | SUCCESS") && ping.stdout.contains("h3 | SUCCESS"), "\(ping.stdout)\(ping.stderr)")
        let ssh = try fleet.runInController(["/usr/bin/ssh", "-F", fleet.sshConfigPath, "h2", "true"])
        #expect(ssh.status == 255, "ssh's status for a failed connection: \(ssh.stderr)")
        #expect(try fleet.run(onHost: 2, "hostname").stdout == "h2\n", "the host itself is still there")
    }

    @Test("tearDown ends every process (sshds, holders, ansible's ssh masters), deletes the namespaces and the folder; again is a no-op")
    func tearDownLeavesNothing() throws {
        let ansible = try AnsibleToolchain.locate()
        let fleet = try FleetTestHosts(count: 2)
        defer { fleet.tearDown() }
        let ping = try fleet.runInController([ansible.ansible, "-m", "ping", "all", "-i", fleet.inventoryPath],
                                             environment: fleet.ansibleEnvironment)
        try #require(ping.status == 0, "\(ping.stdout)\(ping.stderr)")
        let sockets = try FileManager.default.contentsOfDirectory(atPath: fleet.directory + "/cp")
        #expect(!sockets.isEmpty, "ansible's ControlPersist sockets are in the run's folder, not ~/.ansible/cp")
        #expect(fleet.leftoverProcesses().count >= 4, "two holders and two sshds at least, seen before the teardown")

        let duration = fleet.tearDown()
        print("fleet: 2 hosts with ssh masters torn down in \(milliseconds(duration))")

        let namespaces = try FileManager.default.contentsOfDirectory(atPath: "/run/netns")
        #expect(namespaces.filter { $0.hasPrefix(fleet.namespacePrefix) }.isEmpty, "\(namespaces)")
        let listed = try FleetCommand.check(["/usr/sbin/ip", "netns", "list"]).stdout
        #expect(!listed.contains(fleet.namespacePrefix), "\(listed)")
        #expect(fleet.leftoverProcesses().isEmpty, "\(fleet.leftoverProcesses())")
        #expect(sshdsMentioning(fleet.directory).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fleet.directory))
        #expect(fleet.tearDown() == .zero)
        #expect(throws: FleetTestError.self) { try fleet.run(onHost: 1, "true") }
    }

    @Test("Ansible's facts gathered on a host (rpm -q, when rpm is installed) write into the host's private home, never the machine's /root")
    func factsStayInTheHostsHome() throws {
        let ansible = try AnsibleToolchain.locate()
        let machineDatabase = "/root/.rpmdb"
        let before = try? FileManager.default.attributesOfItem(atPath: machineDatabase)
        let fleet = try FleetTestHosts(count: 1)
        defer { fleet.tearDown() }
        let ssh = ["/usr/bin/ssh", "-F", fleet.sshConfigPath]
        #expect(try fleet.runInController(ssh + ["h1", "echo $HOME"]).stdout == "/run/root-home\n")
        let facts = try fleet.runInController([ansible.ansible, "-m", "setup", "-a", "gather_subset=min", "all", "-i", fleet.inventoryPath],
                                              environment: fleet.ansibleEnvironment)
        #expect(facts.status == 0, "\(facts.stdout)\(facts.stderr)")
        #expect(facts.stdout.contains("\"ansible_pkg_mgr\": \"apt\""), "\(facts.stdout)")
        let after = try? FileManager.default.attributesOfItem(atPath: machineDatabase)
        #expect((after == nil) == (before == nil), "\(machineDatabase) made or removed by Ansible's fact gathering")
        #expect(after?[.modificationDate] as? Date == before?[.modificationDate] as? Date)
        if access("/usr/bin/rpm", X_OK) == 0 {
            #expect(try fleet.run(onHost: 1, "test -d /run/root-home/.rpmdb").status == 0, "rpm's database went elsewhere")
        }
    }

    @Test("/run/reboot-required is private to each host: touched in h1, absent in h2 and on the machine's /run")
    func rebootRequiredIsPrivate() throws {
        let marker = "/run/reboot-required"
        let machineBefore = try? FileManager.default.attributesOfItem(atPath: marker)
        let fleet = try FleetTestHosts(count: 2)
        defer { fleet.tearDown() }
        defer {
            // Only if this test broke the machine's /run: it must not be left asking for a reboot.
            if machineBefore == nil { try? FileManager.default.removeItem(atPath: marker) }
        }
        #expect(try fleet.run(onHost: 1, "stat -f -c %T /run").stdout == "tmpfs\n")

        try #require(try fleet.run(onHost: 1, "touch \(marker)").status == 0)

        #expect(try fleet.run(onHost: 1, "test -e \(marker)").status == 0)
        #expect(try fleet.run(onHost: 2, "test -e \(marker)").status == 1)
        // What an ssh session (ansible's view) sees, not only nsenter's.
        let ssh = ["/usr/bin/ssh", "-F", fleet.sshConfigPath]
        #expect(try fleet.runInController(ssh + ["h1", "test -e \(marker)"]).status == 0)
        #expect(try fleet.runInController(ssh + ["h2", "test -e \(marker)"]).status == 1)
        let machineAfter = try? FileManager.default.attributesOfItem(atPath: marker)
        #expect(machineAfter?[.systemFileNumber] as? Int == machineBefore?[.systemFileNumber] as? Int)
        #expect(machineAfter?[.modificationDate] as? Date == machineBefore?[.modificationDate] as? Date)
        let controller = try fleet.runInController(["/bin/sh", "-c", "test -e \(marker)"])
        #expect((controller.status == 0) == (machineBefore != nil), "the controller namespace shares the machine's /run")
    }

    @Test("Setup removes a fleet whose test process is gone (namespace, process, folder) and leaves a live one alone")
    func staleFleetsAreRemoved() async throws {
        // Other suites' fleets sweep stale runs as they are set up, at any moment: this one is
        // owned by this process until its sleeper is inside (a sweep that took it for stale
        // earlier deleted the namespace under `ip netns exec`, and the sleeper never ran).
        let id = try FleetTestHosts.makeRunFolder()
        let namespace = "itop-\(id)-h1"
        let folder = "/tmp/itop-fleet-\(id)"
        let exited = try FleetCommand.check(["/bin/sh", "-c", "echo $$"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try FleetCommand.check(["/usr/sbin/ip", "netns", "add", namespace])
        let sleeper = try FleetCommand.check([
            "/bin/sh", "-c", "/usr/sbin/ip netns exec \(namespace) sleep 600 </dev/null >/dev/null 2>&1 & echo $!",
        ]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let sleeperPID = try #require(pid_t(sleeper))
        defer {
            // Only if the sweep failed: this test's own process and namespace.
            if !processIsGone(sleeperPID) { kill(sleeperPID, SIGKILL) }
            _ = try? FleetCommand.run(["/usr/sbin/ip", "netns", "del", namespace])
            try? FileManager.default.removeItem(atPath: folder)
        }
        try #require(FileManager.default.fileExists(atPath: "/run/netns/\(namespace)"))
        // `ip netns exec` enters the namespace, then becomes `sleep`: until then the sweep,
        // which ends the processes in the namespace, cannot see it (a loaded CI run was there).
        try #require(await eventually { commandLine(of: sleeperPID) == "sleep 600" })
        // Now its owner is gone: replaced in one rename, so a sweep reads one owner or the other.
        try "\(exited) 1\n".write(toFile: folder + "/owner", atomically: true, encoding: .utf8)

        let live = try FleetTestHosts(count: 1)
        defer { live.tearDown() }

        #expect(!FileManager.default.fileExists(atPath: "/run/netns/\(namespace)"))
        #expect(processIsGone(sleeperPID))
        #expect(!FileManager.default.fileExists(atPath: folder))
        // Sweeping again, explicitly: the live fleet (its owner is this process) is not stale.
        let removed = try FleetTestHosts.removeStaleRuns()
        #expect(removed.filter { $0.hasPrefix(live.namespacePrefix) }.isEmpty, "\(removed)")
        #expect(try live.run(onHost: 1, "hostname").stdout == "h1\n")
        let liveNamespaces = try FileManager.default.contentsOfDirectory(atPath: "/run/netns").filter { $0.hasPrefix(live.namespacePrefix) }
        #expect(liveNamespaces.sorted() == [live.namespacePrefix + "ctl", live.namespacePrefix + "h1"])
    }
}

/// A duration as "1234 ms" for the printed timings.
private func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
}

/// The command line of `pid`, its arguments joined by blanks; empty once it is gone.
private func commandLine(of pid: pid_t) -> String {
    let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()
    return String(decoding: data, as: UTF8.self).split(separator: "\0").joined(separator: " ")
}

/// Whether `pid` is gone or a zombie (which a container's init may never reap).
private func processIsGone(_ pid: pid_t) -> Bool {
    guard let state = ProcessStat.state(of: pid) else { return true }
    return state == "Z"
}

/// Live sshd processes whose command line names `folder` (the fleet's sshd configurations).
private func sshdsMentioning(_ folder: String) -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.filter { pid_t($0) != nil }.compactMap { pid in
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return nil }
        let commandLine = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\0", with: " ")
        guard commandLine.contains("sshd"), commandLine.contains(folder), !processIsGone(pid_t(pid) ?? 0) else { return nil }
        return "\(pid): \(commandLine)"
    }
}
