import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// Issue 57's test of "a host whose upgrade breaks its sshd configuration": a namespace host
/// (Documentation/FLEET-FACTS.md) whose sshd includes a drop-in folder of its own, and a private
/// apt root whose `lab-sshd-tweak` 2.0 drops in a line sshd rejects and restarts sshd, as
/// openssh-server's postinst would (`SSHDTweakLab`). `installtop apt upgrade --confirm …
/// --revert-on-regression` runs on the host over real ssh from the controller namespace: the
/// checks after the job see sshd broken (its `sshd -t` fails, port 22 no longer listens, a new
/// login is refused), the run is reverted at once from its kept 1.0, whose postinst mends sshd,
/// and the ssh session that ran it lives through it all and reports exit 7. A fresh login then
/// works again. The machine's packages are never touched (fingerprinted); every namespace,
/// sshd and session goes with the fleet's teardown, also on failure.
@Suite("commit-confirmed over ssh: a host whose upgrade breaks its sshd", .serialized,
       .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
struct CommitConfirmedSSHTests {
    @Test("The upgrade breaks h1's sshd: sshd -t, port 22 and a new login regress, the run is reverted at once (exit 7, dpkg at 1.0, recorded reverted), and a fresh login works again")
    func brokenSSHDIsRevertedAtOnce() async throws {
        let machine = HostPackageFingerprint()
        let fleet = try FleetTestHosts(count: 1, sshdDropIns: true)
        defer { fleet.tearDown() }
        let sshd = try fleet.sshd(host: 1)
        let namespace = try fleet.run(onHost: 1, "readlink /proc/self/ns/net")
        try #require(namespace.status == 0 && namespace.stdout.hasPrefix("net:["), "\(namespace.stdout)\(namespace.stderr)")
        let lab = try SSHDTweakLab(sshd: sshd, networkNamespace: namespace.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        defer { lab.remove() }
        try lab.installVersionOneThenPublishTwo()
        let firstListener = try #require(Self.listener(sshd), "the harness's sshd wrote no pid file")

        // The checks: sshd's own test of the host's configuration, and a new login to the host
        // from the host itself (its address, its sshd; the fleet's key and known_hosts).
        let sshdCheck = "\(sshd.executable) -t -f \(sshd.configuration)"
        let loginCheck = "ssh -F \(fleet.sshConfigPath) -o ControlMaster=no -o ControlPath=none h1 true"
        let upgrade = [try InstalltopBinary.path(), "apt", "upgrade", "--yes", "--plain", "--confirm", "60s",
                       "--check", sshdCheck, "--check", loginCheck, "--revert-on-regression", "--checks-dir", lab.checksFolder]
            + lab.arguments
        let started = ContinuousClock.now
        let result = try await FleetCommand.run(try fleet.sshCommand(toHost: 1, upgrade.map(SSHDTweakLab.quoted).joined(separator: " ")),
                                                timeout: .seconds(300))
        let took = ContinuousClock.now - started
        let output = "exit \(result.status) after \(took)\nstdout: \(result.stdout)\nstderr: \(result.stderr)"

        // The session outlived its sshd's listener and reports the revert's status (ssh's own
        // failure would be 255).
        #expect(result.status == 7, "\(output)")
        #expect(result.stderr.contains("health before the job: "), "\(output)")
        // 2.0's postinst stopped the harness's listener and sshd refused to start again, as
        // sshd's own log says.
        let log = Self.read(sshd.log)
        #expect(log.contains("Received signal 15; terminating.")
                && log.contains("Bad configuration option: LabSSHDTweak") && log.contains("terminating, 1 bad configuration options"), "\(log)")
        #expect(result.stderr.contains("reverting (a check regressed: "), "\(output)")

        // Between the job and the revert ssh to the host was broken, as the checks after the job
        // recorded: sshd rejects its configuration, nothing listens on port 22, a login is refused.
        let armed = try #require(try await lab.runs().last { $0["confirm"] is [String: Any] }, "no armed run in the history")
        let window = try #require(armed["confirm"] as? [String: Any])
        let regressions = try #require(window["regressions"] as? [[String: Any]], "\(window)")
        func regression(_ check: String) -> [String: Any]? { regressions.first { $0["check"] as? String == check } }
        let sshdTest = try #require(regression(sshdCheck), "\(regressions)")
        #expect(sshdTest["before"] as? String == "passed", "\(sshdTest)")
        let sshdAfter = sshdTest["after"] as? String ?? ""
        #expect(sshdAfter.hasPrefix("failed: exit status 255: ") && sshdAfter.contains("Bad configuration option: LabSSHDTweak"),
                "\(sshdTest)")
        let login = try #require(regression(loginCheck), "\(regressions)")
        #expect(login["before"] as? String == "passed", "\(login)")
        #expect((login["after"] as? String)?.contains("port 22: Connection refused") == true, "\(login)")
        let ports = try #require(regression("listening TCP ports"), "\(regressions)")
        #expect((ports["after"] as? String)?.contains("(gone: tcp/22)") == true, "\(ports)")

        // Reverted at once on the regression (not at the 60 s deadline), by the undo's run.
        #expect(window["state"] as? String == "reverted", "\(window)")
        #expect((window["reason"] as? String)?.hasPrefix("a check regressed: ") == true, "\(window)")
        let undoRun = (try await lab.runs().first?["run"] as? NSNumber)?.intValue
        #expect(undoRun != nil && (window["revertRun"] as? NSNumber)?.intValue == undoRun
                && (armed["undoneBy"] as? NSNumber)?.intValue == undoRun, "\(window)")
        let table = try await installtop(["history", "--jobs", "--history-db", lab.database], in: lab.testFolder)
        #expect(table.stdout.contains("reverted at ") && table.stdout.contains("by run \(undoRun ?? -1)")
                && table.stdout.contains("regressed: listening TCP ports: tcp/22"), "\(table.stdout)")
        #expect(try lab.states() == [SSHDTweakLab.package: "ii 1.0"])
        #expect(try lab.apt.audit().isEmpty)
        #expect(access(lab.dropIn, F_OK) != 0, "1.0's postinst removes the bad drop-in")

        // A fresh login (no shared connection) works again, to the listener 1.0's postinst
        // started in place of the harness's.
        var lastLogin: FleetCommand?
        let loggedIn = await eventually(timeout: .seconds(60)) {
            lastLogin = try? await FleetCommand.run(try fleet.sshCommand(toHost: 1, "hostname"), timeout: .seconds(30))
            return lastLogin?.status == 0
        }
        #expect(loggedIn && lastLogin?.stdout == "h1\n", "\(String(describing: lastLogin))\nsshd log: \(Self.read(sshd.log))")
        let listener = Self.listener(sshd)
        #expect(listener != nil && listener != firstListener, "the listener was restarted: \(String(describing: listener))")
        #expect(machine.changes(since: HostPackageFingerprint()).isEmpty)
        fleet.tearDown()
        #expect(fleet.leftoverProcesses().isEmpty, "the sshd 1.0's postinst started goes with the fleet")
    }

    /// The pid in the host's sshd pid file, if a process has it: the running listener.
    private static func listener(_ sshd: FleetHostSSHD) -> pid_t? {
        guard let pid = pid_t(read(sshd.pidFile).trimmingCharacters(in: .whitespacesAndNewlines)), kill(pid, 0) == 0 else { return nil }
        return pid
    }

    private static func read(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
}
