import Foundation
import Glibc
import InstallHistory
import Testing
@testable import installtop

/// What a commit-confirmed run hands systemd (issue 57): the revert timer's unit name and
/// command lines, the test hooks that pick the tools, and the services a job restarted, found
/// by their invocation IDs before and after it. No real systemd tool is run: where a tool runs
/// at all, it is a script in a temporary folder.
@Suite("Commit-confirmed: the revert timer and the services restarted again")
struct CommitConfirmedSystemdTests {
    private static let fake = SystemdTools(systemdRun: "/fake/systemd-run", systemctl: "/fake/systemctl", running: true)

    /// A temporary folder, removed by the caller.
    private static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-systemd-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// An executable shell script at `path`.
    private static func script(_ path: String, _ body: String) throws {
        try ("#!/bin/sh\n" + body + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
    }

    @Test("The test hooks: absolute tool paths and RUNNING=1/0 are taken; a relative path or another value is not")
    func hooks() {
        let hooked = SystemdTools.current(environment: ["INSTALLTOP_SYSTEMD_RUN": "/t/run", "INSTALLTOP_SYSTEMCTL": "/t/ctl",
                                                        "INSTALLTOP_SYSTEMD_RUNNING": "1"])
        #expect(hooked == SystemdTools(systemdRun: "/t/run", systemctl: "/t/ctl", running: true))
        let ignored = SystemdTools.current(environment: ["INSTALLTOP_SYSTEMD_RUN": "run", "INSTALLTOP_SYSTEMCTL": "bin/ctl",
                                                         "INSTALLTOP_SYSTEMD_RUNNING": "0"])
        #expect(ignored == SystemdTools(systemdRun: "/usr/bin/systemd-run", systemctl: "/usr/bin/systemctl", running: false))
        let detected = SystemdTools.current(environment: ["INSTALLTOP_SYSTEMD_RUNNING": "yes"])
        #expect(detected.running == FileManager.default.fileExists(atPath: "/run/systemd/system"))
    }

    @Test("The timer's unit: run and a 12-digit id of the history; two histories differ, two spellings of one history do not")
    func unitNames() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = folder + "/history.sqlite3"
        _ = FileManager.default.createFile(atPath: database, contents: Data())
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.sqlite3", withDestinationPath: database)
        let timer = RevertTimer(run: 12, historyDatabase: database, tools: Self.fake)
        let id = RevertTimer.historyID(timer.historyDatabase)
        #expect(id.count == 12 && id.allSatisfy(\.isHexDigit), "\(id)")
        #expect(timer.unit == "installtop-revert-12-\(id)")
        #expect(RevertTimer(run: 12, historyDatabase: folder + "/link.sqlite3", tools: Self.fake).unit == timer.unit)
        #expect(RevertTimer(run: 12, historyDatabase: folder + "/./history.sqlite3", tools: Self.fake).unit == timer.unit)
        #expect(RevertTimer(run: 12, historyDatabase: "/var/lib/installtop/history.sqlite3", tools: Self.fake).unit != timer.unit)
        #expect(RevertTimer(run: 13, historyDatabase: database, tools: Self.fake).unit != timer.unit)
        // Stable across processes: FNV-1a, not Swift's seeded Hasher.
        #expect(RevertTimer.historyID("/var/lib/installtop/history.sqlite3") == RevertTimer.historyID("/var/lib/installtop/history.sqlite3"))
        #expect(RevertTimer.historyID("") == "cbf29ce48422")
    }

    @Test("systemd-run's command: the calendar time in UTC rounded up to the second, 1 s accuracy, the revert with the absolute history")
    func scheduleCommand() {
        let timer = RevertTimer(run: 7, historyDatabase: "/srv/h/history.sqlite3", tools: Self.fake)
        let deadline = Date(timeIntervalSince1970: 1_800_000_000.2)
        #expect(RevertTimer.calendar(deadline) == "2027-01-15 08:00:01 UTC")
        #expect(RevertTimer.calendar(Date(timeIntervalSince1970: 1_800_000_000)) == "2027-01-15 08:00:00 UTC")
        let unit = "installtop-revert-7-" + RevertTimer.historyID("/srv/h/history.sqlite3")
        #expect(timer.scheduleCommand(at: deadline, executable: "/usr/bin/installtop") == [
            "/fake/systemd-run", "--unit=\(unit)", "--description=installtop: revert run 7 unless confirmed (/srv/h/history.sqlite3)",
            "--on-calendar=2027-01-15 08:00:01 UTC", "--timer-property=AccuracySec=1s", "--collect", "--no-ask-password",
            "--", "/usr/bin/installtop", "apt", "revert", "7", "--due", "--yes", "--plain", "--history-db", "/srv/h/history.sqlite3",
        ])
        #expect(timer.stopCommand == ["/fake/systemctl", "stop", "--no-ask-password", "\(unit).timer"])
        // A relative history is made absolute: systemd runs the revert in /.
        let relative = RevertTimer(run: 7, historyDatabase: "state/h.sqlite3", tools: Self.fake)
        #expect(relative.historyDatabase == FileManager.default.currentDirectoryPath + "/state/h.sqlite3")
    }

    @Test("Scheduling: nothing run where systemd does not; a refusal of systemd-run is said; success names the unit")
    func scheduling() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/calls"
        try Self.script(folder + "/ok", "echo \"$*\" >> \(log)")
        try Self.script(folder + "/refuses", "echo 'Failed to start transient timer unit: Access denied' >&2; exit 1")
        let window = ConfirmWindow(run: 3, armedAt: Date(), deadline: Date(timeIntervalSince1970: 1_800_000_000))
        let off = SystemdTools(systemdRun: folder + "/ok", systemctl: folder + "/ok", running: false)
        #expect(RevertTimer.schedule(window: window, historyDatabase: "/h.sqlite3", tools: off) == .systemdNotRunning)
        RevertTimer(run: 3, historyDatabase: "/h.sqlite3", tools: off).stop()
        #expect(!FileManager.default.fileExists(atPath: log), "no tool runs where systemd does not")

        let refusing = SystemdTools(systemdRun: folder + "/refuses", systemctl: folder + "/ok", running: true)
        #expect(RevertTimer.schedule(window: window, historyDatabase: "/h.sqlite3", tools: refusing)
                == .failed("refuses failed: exit status 1: Failed to start transient timer unit: Access denied"))

        let on = SystemdTools(systemdRun: folder + "/ok", systemctl: folder + "/ok", running: true)
        let unit = "installtop-revert-3-" + RevertTimer.historyID("/h.sqlite3")
        #expect(RevertTimer.schedule(window: window, historyDatabase: "/h.sqlite3", tools: on) == .scheduled(unit: unit))
        #expect(RevertTimer(run: 3, historyDatabase: "/h.sqlite3", tools: on).move(to: Date(timeIntervalSince1970: 1_800_000_060))
                == .scheduled(unit: unit))
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(calls.count == 3, "\(calls)")
        #expect(calls.first?.contains("--on-calendar=2027-01-15 08:00:00 UTC") == true, "\(calls)")
        // The move: the timer stopped, then scheduled at the new deadline.
        #expect(calls.dropFirst().first == "stop --no-ask-password \(unit).timer", "\(calls)")
        #expect(calls.last?.contains("--on-calendar=2027-01-15 08:01:00 UTC") == true, "\(calls)")
        let scheduled = RevertTimerOutcome.scheduled(unit: unit)
        let own = scheduled.whoReverts(run: 3, historyDatabase: "/h.sqlite3", serviceHistory: "/var/lib/installtop/history.sqlite3")
        #expect(own.hasPrefix("systemd's timer \(unit).timer reverts it at the deadline"), "\(own)")
        // After a reboot the service's engine reverts only the runs of its own history.
        #expect(own.hasSuffix("a reboot drops the timer: then only an engine recording into this history reverts it, at its start "
            + "(installtop.service records into /var/lib/installtop/history.sqlite3)"), "\(own)")
        let service = scheduled.whoReverts(run: 3, historyDatabase: "/h.sqlite3", serviceHistory: "/h.sqlite3")
        #expect(service.hasSuffix("a reboot drops the timer: then installtop.service (once enabled: systemctl enable installtop) "
            + "reverts it at its start"), "\(service)")
        #expect(RevertTimerOutcome.systemdNotRunning.whoReverts(run: 3, historyDatabase: "/h.sqlite3")
            .contains("reverts it at the deadline, or at its next start (systemd is not running here"))
    }

    @Test("systemctl show's blocks: active services with an invocation, any property order; inactive and empty ones left out")
    func parseShow() {
        let output = """
            Id=cron.service
            ActiveState=active
            InvocationID=aaa

            InvocationID=bbb
            Id=nginx.service
            ActiveState=reloading

            Id=old.service
            ActiveState=inactive
            InvocationID=

            Id=gone.service
            ActiveState=failed
            InvocationID=ccc

            """
        #expect(ServiceInvocations.parse(output) == ["cron.service": "aaa", "nginx.service": "bbb"])
        #expect(ServiceInvocations.parse("") == [:])
        #expect(ServiceInvocations(tools: Self.fake).showCommand
                == ["/fake/systemctl", "show", "--type=service", "--state=active", "--property=Id,ActiveState,InvocationID", "--", "*.service"])
    }

    @Test("Restarted by the job: a new invocation or newly active; unchanged and stopped ones not; nil when a side was not read")
    func comparison() {
        let before = ["cron.service": "1", "nginx.service": "2", "ssh.service": "3", "stopped.service": "4"]
        let after = ["cron.service": "1", "nginx.service": "20", "ssh.service": "30", "new.service": "5"]
        #expect(ServiceInvocations.restarted(before: before, after: after) == ["new.service", "nginx.service", "ssh.service"])
        #expect(ServiceInvocations.restarted(before: before, after: before) == [])
        #expect(ServiceInvocations.restarted(before: nil, after: after) == nil)
        #expect(ServiceInvocations.restarted(before: before, after: nil) == nil)
    }

    @Test("After a revert: try-restart of the recorded units in one call; without a record or systemd, nothing is run and why is said")
    func restartAgain() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/calls"
        try Self.script(folder + "/systemctl", "echo \"$*\" >> \(log)")
        let tools = SystemdTools(systemdRun: folder + "/none", systemctl: folder + "/systemctl", running: true)
        let said = ServiceInvocations(tools: tools).restartAgain(["nginx.service", "ssh.service"])
        #expect(said == "services the job restarted, restarted again (those running): nginx.service ssh.service")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "try-restart --no-ask-password -- nginx.service ssh.service\n")
        try FileManager.default.removeItem(atPath: log)
        #expect(ServiceInvocations(tools: tools).restartAgain([]) == "services: the job restarted none, none restarted again")
        #expect(ServiceInvocations(tools: tools).restartAgain(nil).contains("the old versions' maintainer scripts restarted what they restart"))
        var off = tools
        off.running = false
        #expect(ServiceInvocations(tools: off).restartAgain(["nginx.service"]).contains("systemd is not running here: nginx.service"))
        #expect(!FileManager.default.fileExists(atPath: log))
        try Self.script(folder + "/systemctl", "echo 'Failed to try-restart gone.service: Unit gone.service not found.' >&2; exit 5")
        #expect(ServiceInvocations(tools: tools).restartAgain(["gone.service"])
                == "services the job restarted: gone.service; systemctl try-restart failed (some or all may not be restarted): "
                    + "exit status 5: Failed to try-restart gone.service: Unit gone.service not found.")
    }
}
