import FleetTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// `FleetTestHosts(count:sshdDropIns: true)`: each host's sshd reads a drop-in folder of its own
/// before its own lines and writes a pid file, so that a test's package can break and restart it
/// as an upgrade of openssh-server would; a listener restarted that way goes with the teardown.
@Suite("Fleet test hosts: sshd drop-ins and restarts", .serialized)
struct FleetSSHDDropInTests {
    @Test("A drop-in's value wins over the host's sshd_config; the pid file names the listener; sshd stopped by it and started with startCommand takes logins; teardown ends it")
    func dropInsAndRestart() async throws {
        let fleet = try FleetTestHosts(count: 1, sshdDropIns: true)
        defer { fleet.tearDown() }
        let sshd = try fleet.sshd(host: 1)
        #expect(sshd.dropInFolder.hasPrefix(fleet.directory + "/") && sshd.pidFile.hasPrefix(fleet.directory + "/"),
                "nothing of it outside the run's folder: \(sshd)")

        // sshd keeps the first value it reads: the drop-in's, read before the host's `MaxSessions 50`.
        let effective = "\(sshd.executable) -T -f \(sshd.configuration) | grep '^maxsessions '"
        #expect(try fleet.run(onHost: 1, effective).stdout == "maxsessions 50\n")
        try "MaxSessions 7\n".write(toFile: sshd.dropInFolder + "/10-test.conf", atomically: true, encoding: .utf8)
        #expect(try fleet.run(onHost: 1, effective).stdout == "maxsessions 7\n")

        let first = try #require(Self.pid(in: sshd.pidFile), "no pid file")
        #expect(Self.commandLine(of: first).contains(sshd.configuration), "the pid file names the harness's listener")
        // Restarted as a service manager would: stopped by its pid, then started on the host.
        kill(first, SIGTERM)
        let stopped = await eventually(timeout: .seconds(30), every: .milliseconds(10)) { !Self.isRunning(first) }
        #expect(stopped, "sshd \(first) did not stop")
        let start = try fleet.run(onHost: 1, sshd.startCommand.map { "'\($0)'" }.joined(separator: " "))
        #expect(start.status == 0, "\(start.stdout)\(start.stderr)")
        var login: FleetCommand?
        let loggedIn = await eventually(timeout: .seconds(60), every: .milliseconds(10)) {
            login = try? await FleetCommand.run(try fleet.sshCommand(toHost: 1, "hostname"), timeout: .seconds(30))
            return login?.status == 0
        }
        #expect(loggedIn && login?.stdout == "h1\n", "\(String(describing: login))")
        let second = try #require(Self.pid(in: sshd.pidFile))
        #expect(second != first && Self.isRunning(second))

        fleet.tearDown()
        #expect(!Self.isRunning(second), "the restarted sshd goes with the fleet")
        #expect(fleet.leftoverProcesses().isEmpty)
    }

    @Test("A fleet made without sshdDropIns has no drop-in folder or pid file to give")
    func withoutDropIns() throws {
        let fleet = try FleetTestHosts(count: 1)
        defer { fleet.tearDown() }
        #expect(throws: FleetTestError.self) { try fleet.sshd(host: 1) }
        #expect(try String(contentsOfFile: fleet.directory + "/h1/sshd_config", encoding: .utf8).contains("PidFile none\n"))
    }

    /// The pid a pid file holds, if it holds one.
    private static func pid(in file: String) -> pid_t? {
        (try? String(contentsOfFile: file, encoding: .utf8)).flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// Whether `pid` runs: a zombie (the harness reaps its sshd at teardown) does not.
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return false }
        return !status.split(separator: "\n").contains { $0.hasPrefix("State:") && $0.contains("Z") }
    }

    private static func commandLine(of pid: pid_t) -> String {
        String(decoding: FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data(), as: UTF8.self)
            .replacingOccurrences(of: "\0", with: " ")
    }
}
