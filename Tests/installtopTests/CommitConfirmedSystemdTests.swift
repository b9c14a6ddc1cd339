import Foundation
import Glibc
import InstallHistory
import Testing
import TestProcessSupport
@testable import installtop

/// What a commit-confirmed run hands systemd (issue 57): the revert timer's unit name and
/// command lines, the test hooks that pick the tools, and the services a job restarted, found
/// by their invocation IDs before and after it. No real systemd tool is run: where a tool runs
/// at all, it is a script in a temporary folder.
@Suite("Commit-confirmed: the revert timer and the services restarted again")
struct CommitConfirmedSystemdTests {
    private static let fake = SystemdTools(unitDirectory: "/fake/units", systemctl: "/fake/systemctl", running: true)

    /// A temporary folder, removed by the caller.
    private static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-systemd-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// An executable shell script at `path`.
    private static func script(_ path: String, _ body: String) throws {
        try ExecutableFile.write("#!/bin/sh\n" + body + "\n", to: path)
    }

    @Test("The test hooks: absolute tool paths and RUNNING=1/0 are taken; a relative path or another value is not")
    func hooks() {
        let hooked = SystemdTools.current(environment: ["INSTALLTOP_SYSTEMD_UNIT_DIR": "/t/units", "INSTALLTOP_SYSTEMCTL": "/t/ctl",
                                                        "INSTALLTOP_SYSTEMD_RUNNING": "1"])
        #expect(hooked == SystemdTools(unitDirectory: "/t/units", systemctl: "/t/ctl", running: true))
        let ignored = SystemdTools.current(environment: ["INSTALLTOP_SYSTEMD_UNIT_DIR": "units", "INSTALLTOP_SYSTEMCTL": "bin/ctl",
                                                         "INSTALLTOP_SYSTEMD_RUNNING": "0"])
        #expect(ignored == SystemdTools(unitDirectory: "/etc/systemd/system", systemctl: "/usr/bin/systemctl", running: false))
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

    @Test("The units: the timer at the deadline in UTC rounded up to the second, 1 s accuracy, persistent and enabled at boot; the service runs the tool's revert with the absolute history, quoted for systemd")
    func unitFiles() {
        let timer = RevertTimer(run: 7, historyDatabase: "/srv/h 100%/history.sqlite3", tools: Self.fake)
        let deadline = Date(timeIntervalSince1970: 1_800_000_000.2)
        #expect(RevertTimer.calendar(deadline) == "2027-01-15 08:00:01 UTC")
        #expect(RevertTimer.calendar(Date(timeIntervalSince1970: 1_800_000_000)) == "2027-01-15 08:00:00 UTC")
        let unit = "installtop-revert-7-" + RevertTimer.historyID("/srv/h 100%/history.sqlite3")
        #expect(timer.timerFile == "/fake/units/\(unit).timer" && timer.serviceFile == "/fake/units/\(unit).service")
        let timerText = timer.timerUnit(at: deadline)
        for line in ["OnCalendar=2027-01-15 08:00:01 UTC", "AccuracySec=1s", "Persistent=true", "WantedBy=timers.target",
                     "Description=installtop: the deadline of run 7 (/srv/h 100%%/history.sqlite3)"] {
            #expect(timerText.split(separator: "\n").contains { $0 == line }, "\(line) in\n\(timerText)")
        }
        let service = timer.serviceUnit(executable: "/usr/bin/installtop")
        #expect(service.contains("Type=oneshot\n"))
        #expect(service.contains(#"ExecStart="/usr/bin/installtop" "apt" "revert" "7" "--due" "--yes" "--plain" "--history-db" "/srv/h 100%%/history.sqlite3""#),
                "\(service)")
        #expect(RevertTimer(run: 7, historyDatabase: "/h.sqlite3", tool: "dnf", tools: Self.fake).serviceUnit(executable: "/i")
            .contains(#""/i" "dnf" "revert" "7""#))
        #expect(RevertTimer.quoted(#"a"b\c$d"#) == #""a\"b\\c$$d""#)
        #expect(timer.enableCommand == ["/fake/systemctl", "enable", "--now", "--no-ask-password", "\(unit).timer"])
        #expect(timer.disableCommand == ["/fake/systemctl", "disable", "--now", "--no-ask-password", "\(unit).timer"])
        #expect(timer.reloadCommand == ["/fake/systemctl", "daemon-reload", "--no-ask-password"])
        // A relative history is made absolute: systemd runs the revert in /.
        let relative = RevertTimer(run: 7, historyDatabase: "state/h.sqlite3", tools: Self.fake)
        #expect(relative.historyDatabase == FileManager.default.currentDirectoryPath + "/state/h.sqlite3")
    }

    @Test("Scheduling writes the units and enables the timer; a move rewrites it and restarts it; a stop disables it and removes both; nothing without systemd; a refusal is said and leaves no file")
    func scheduling() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let log = folder + "/calls"
        try Self.script(folder + "/ok", "echo \"$*\" >> \(log)")
        try Self.script(folder + "/refuses", "echo \"$*\" >> \(log); [ \"$1\" = enable ] && { echo 'Failed to enable unit: Access denied' >&2; exit 1; }; exit 0")
        let units = folder + "/units"
        let window = ConfirmWindow(run: 3, armedAt: Date(), deadline: Date(timeIntervalSince1970: 1_800_000_000))
        let off = SystemdTools(unitDirectory: units, systemctl: folder + "/ok", running: false)
        #expect(RevertTimer.schedule(window: window, historyDatabase: "/h.sqlite3", tools: off) == .systemdNotRunning)
        RevertTimer(run: 3, historyDatabase: "/h.sqlite3", tools: off).stop()
        #expect(!FileManager.default.fileExists(atPath: log), "no tool runs where systemd does not")
        #expect(!FileManager.default.fileExists(atPath: units), "no unit is written where systemd does not run")

        let unit = "installtop-revert-3-" + RevertTimer.historyID("/h.sqlite3")
        let refusing = SystemdTools(unitDirectory: units, systemctl: folder + "/refuses", running: true)
        #expect(RevertTimer.schedule(window: window, historyDatabase: "/h.sqlite3", tools: refusing)
                == .failed("systemctl enable failed: exit status 1: Failed to enable unit: Access denied"))
        #expect(!FileManager.default.fileExists(atPath: "\(units)/\(unit).timer") && !FileManager.default.fileExists(atPath: "\(units)/\(unit).service"))
        try FileManager.default.removeItem(atPath: log)

        let on = SystemdTools(unitDirectory: units, systemctl: folder + "/ok", running: true)
        #expect(RevertTimer.schedule(window: window, historyDatabase: "/h.sqlite3", tools: on) == .scheduled(unit: unit))
        #expect(try String(contentsOfFile: "\(units)/\(unit).timer", encoding: .utf8).contains("OnCalendar=2027-01-15 08:00:00 UTC"))
        #expect(FileManager.default.fileExists(atPath: "\(units)/\(unit).service"))
        let timer = RevertTimer(run: 3, historyDatabase: "/h.sqlite3", tools: on)
        #expect(timer.move(to: Date(timeIntervalSince1970: 1_800_000_060)) == .scheduled(unit: unit))
        #expect(try String(contentsOfFile: "\(units)/\(unit).timer", encoding: .utf8).contains("OnCalendar=2027-01-15 08:01:00 UTC"))
        timer.stop()
        #expect(!FileManager.default.fileExists(atPath: "\(units)/\(unit).timer") && !FileManager.default.fileExists(atPath: "\(units)/\(unit).service"))
        // A second stop finds nothing to stop: nothing is run.
        timer.stop()
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(calls == ["daemon-reload --no-ask-password", "enable --now --no-ask-password \(unit).timer",
                          "daemon-reload --no-ask-password", "restart --no-ask-password \(unit).timer",
                          "disable --now --no-ask-password \(unit).timer", "daemon-reload --no-ask-password"], "\(calls)")
        let scheduled = RevertTimerOutcome.scheduled(unit: unit)
        let said = scheduled.whoReverts(run: 3, historyDatabase: "/h.sqlite3")
        #expect(said.hasPrefix("systemd's timer \(unit).timer reverts it at the deadline, also with no engine running and across a reboot"), "\(said)")
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
        let tools = SystemdTools(unitDirectory: folder + "/units", systemctl: folder + "/systemctl", running: true)
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
