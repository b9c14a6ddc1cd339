import APTTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// What a commit-confirmed run hands systemd (issue 57), through the real binary in a private
/// apt root (`UndoLab`) with a fake `systemctl` script that records its arguments and a units
/// folder of the lab's (the test hooks `INSTALLTOP_SYSTEMCTL`, `INSTALLTOP_SYSTEMD_UNIT_DIR`,
/// `INSTALLTOP_SYSTEMD_RUNNING=1`): the revert timer's units written and enabled when the run is
/// armed, moved by an extension, disabled and removed by a confirmation and at the end of a
/// revert; the services whose
/// invocation changed during the job restarted again with one `try-restart` after the revert.
/// No real systemd tool runs, and the host's packages are never touched.
@Suite("installtop apt … --confirm: the systemd timer and the services restarted again", .serialized)
struct CommitConfirmedTimerTests {
    /// The fake systemctl and units folder in the lab's folder and what was recorded: each call one line, its
    /// program and arguments separated by tabs. The fake systemctl prints, for `show`, the
    /// services file under the apt root (which a lab package's postinst may rewrite), and, for
    /// `try-restart`, which lab-app dpkg has at that moment (a line `then: lab-app N`).
    private struct FakeSystemd {
        let calls: String
        let services: String
        let units: String
        let environment: [String: String]

        init(_ lab: UndoLab) throws {
            calls = lab.folder.file("systemd-calls")
            services = lab.apt.root + "/lab-services"
            let record = "line=\"$(basename \"$0\")\"; for a in \"$@\"; do line=\"$line\t$a\"; done; printf '%s\\n' \"$line\" >> \(calls)"
            units = lab.folder.file("units")
            let systemctl = try lab.folder.script("fake-systemctl", """
                \(record)
                case "$1" in
                  show) cat \(services) 2>/dev/null ;;
                  try-restart) printf 'then: lab-app %s\\n' "$(sed -n 's/^echo //p' \(lab.apt.root)/usr/bin/lab-app)" >> \(calls) ;;
                esac
                exit 0
                """)
            environment = ["INSTALLTOP_SYSTEMD_UNIT_DIR": units, "INSTALLTOP_SYSTEMCTL": systemctl, "INSTALLTOP_SYSTEMD_RUNNING": "1"]
        }

        /// The calls so far, each as its program and arguments.
        func recorded() -> [[String]] {
            let text = (try? String(contentsOfFile: calls, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        }

        /// `systemctl show`'s blocks for `services` (name and invocation ID).
        static func show(_ services: [(String, String)]) -> String {
            services.map { "Id=\($0.0)\nActiveState=active\nInvocationID=\($0.1)\n" }.joined(separator: "\n")
        }
    }

    private static func upgradeArguments(_ lab: UndoLab, confirm: String) -> [String] {
        ["apt", "upgrade", "--confirm", confirm, "--checks-dir", lab.folder.file("checks")] + lab.arguments
    }

    /// The armed run's `confirm` object from `history --jobs --json`, polled until `condition`
    /// holds for it.
    private static func window(of lab: UndoLab, until condition: ([String: Any]) -> Bool) async throws -> [String: Any] {
        var last: [String: Any] = [:]
        let held = try await eventually(timeout: .seconds(300)) {
            guard let confirm = try await lab.runs().lazy.compactMap({ $0["confirm"] as? [String: Any] }).first else { return false }
            last = confirm
            return condition(confirm)
        }
        guard held else { throw EndToEndError.conditionNotMet("the armed run's window to change; last: \(last)") }
        return last
    }

    private static func armedRun(_ lab: UndoLab) async throws -> Int {
        try #require((try await lab.runs().last { $0["confirm"] is [String: Any] }?["run"] as? NSNumber)?.intValue)
    }

    /// `window`'s deadline as systemd's calendar takes it: UTC, rounded up to the second.
    private static func calendar(_ window: [String: Any]) throws -> String {
        let text = try #require(window["deadline"] as? String)
        let deadline = try #require(ISO8601DateFormatter.withFractions.date(from: text))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: deadline.timeIntervalSince1970.rounded(.up))) + " UTC"
    }

    /// `path` with its links resolved, as installtop hands it to systemd.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    @Test("Armed: the timer's units written and enabled at the deadline (UTC), persistent across reboots; --extend moves the timer, a confirmation disables it and removes its units")
    func timerScheduledMovedStopped() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        try lab.installVersionOne()
        try lab.apt.publish(UndoLab.packages("2.0"))
        let systemd = try FakeSystemd(lab)
        let waiting = try InstalltopProcess(Self.upgradeArguments(lab, confirm: "10m"), in: lab.folder, environment: systemd.environment)
        let armed = try await Self.window(of: lab) { $0["state"] as? String == "armed" }
        let run = try await Self.armedRun(lab)
        try await waitUntil("the timer enabled") { systemd.recorded().contains { $0.count > 2 && $0[1] == "enable" } }
        let enable = try #require(systemd.recorded().first { $0.count > 2 && $0[1] == "enable" })
        let calls = systemd.recorded()
        let enabling = try #require(calls.firstIndex(of: enable))
        #expect(enabling > 0 && calls[enabling - 1] == ["fake-systemctl", "daemon-reload", "--no-ask-password"], "units read before the enable: \(calls)")
        let unitTimer = try #require(enable.last)
        #expect(unitTimer.hasPrefix("installtop-revert-\(run)-") && unitTimer.hasSuffix(".timer"), "\(enable)")
        let unit = String(unitTimer.dropLast(".timer".count))
        #expect(enable == ["fake-systemctl", "enable", "--now", "--no-ask-password", unitTimer])
        let historyID = unit.dropFirst("installtop-revert-\(run)-".count)
        #expect(historyID.count == 12 && historyID.allSatisfy(\.isHexDigit), "\(unit)")
        let database = Self.resolved(lab.database)
        let timerText = try String(contentsOfFile: "\(systemd.units)/\(unit).timer", encoding: .utf8)
        #expect(timerText.contains("OnCalendar=\(try Self.calendar(armed))\n") && timerText.contains("Persistent=true\n"), "\(timerText)")
        let serviceText = try String(contentsOfFile: "\(systemd.units)/\(unit).service", encoding: .utf8)
        #expect(serviceText.contains("ExecStart=" + [Self.resolved(try InstalltopBinary.path()), "apt", "revert", String(run), "--due", "--yes",
                                                      "--plain", "--history-db", database].map { "\"\($0)\"" }.joined(separator: " ")),
                "\(serviceText)")
        try await waitUntil("the arming lines to be said") { waiting.stderr.contains("reverts it now") }
        #expect(waiting.stderr.contains("if this command is stopped, systemd's timer \(unit).timer reverts it at the deadline, also with no engine running and across a reboot"),
                "\(waiting.stderr)")

        // --extend: the timer stopped and scheduled again at the new deadline.
        let before = systemd.recorded().count
        let extended = try await installtop(["confirm", "--run", String(run), "--extend", "10m", "--history-db", lab.database],
                                            in: lab.folder, environment: systemd.environment)
        #expect(extended.status == 0, "\(extended.stderr)")
        let moved = try await Self.window(of: lab) { ($0["deadline"] as? String) != (armed["deadline"] as? String) }
        let extensionCalls = Array(systemd.recorded().dropFirst(before))
        #expect(extensionCalls == [["fake-systemctl", "daemon-reload", "--no-ask-password"],
                                   ["fake-systemctl", "restart", "--no-ask-password", "\(unit).timer"]], "\(extensionCalls)")
        let movedText = try String(contentsOfFile: "\(systemd.units)/\(unit).timer", encoding: .utf8)
        #expect(movedText.contains("OnCalendar=\(try Self.calendar(moved))\n"), "\(movedText)")

        // A confirmation: the timer stopped, nothing scheduled again.
        let beforeConfirm = systemd.recorded().count
        let confirmed = try await installtop(["confirm", "--run", String(run), "--history-db", lab.database],
                                             in: lab.folder, environment: systemd.environment)
        #expect(confirmed.status == 0, "\(confirmed.stderr)")
        #expect(Array(systemd.recorded().dropFirst(beforeConfirm)) == [["fake-systemctl", "disable", "--now", "--no-ask-password", "\(unit).timer"],
                                                                       ["fake-systemctl", "daemon-reload", "--no-ask-password"]])
        #expect(!FileManager.default.fileExists(atPath: "\(systemd.units)/\(unit).timer"), "the units removed with the timer")
        #expect(!FileManager.default.fileExists(atPath: "\(systemd.units)/\(unit).service"))
        let result = try await waiting.finish(timeout: .seconds(60))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try lab.states()["lab-app"] == "ii 2.0")
        #expect(!systemd.recorded().contains { $0.contains("try-restart") }, "a kept run restarts nothing")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("Reverted at the deadline: the timer stopped, and the services the job restarted or started restarted again once 1.0 is back")
    func revertStopsTimerAndRestartsServices() async throws {
        let host = HostPackageFingerprint()
        let lab = try UndoLab()
        defer { lab.remove() }
        try lab.installVersionOne()
        let systemd = try FakeSystemd(lab)
        try FakeSystemd.show([("cron.service", "c1"), ("lab-db.service", "d1"), ("lab-web.service", "w1")])
            .write(toFile: systemd.services, atomically: true, encoding: .utf8)
        // 2.0's postinst restarts lab-web (a new invocation) and starts lab-new, as a real
        // package's would: the fake systemctl shows the file it rewrites.
        let after = FakeSystemd.show([("cron.service", "c1"), ("lab-db.service", "d1"), ("lab-new.service", "n1"), ("lab-web.service", "w2")])
        let restarting = UndoLab.packages("2.0").map { package in
            var package = package
            if package.name == "lab-app" { package.postinst = "printf '%s' '\(after)' > \"$DPKG_ROOT/lab-services\"" }
            return package
        }
        try lab.apt.publish(restarting)
        let result = try await installtop(Self.upgradeArguments(lab, confirm: "3s"), in: lab.folder, environment: systemd.environment,
                                          timeout: .seconds(180))
        #expect(result.status == 7, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(try lab.states() == ["lab-base": "ii 1.0", "lab-app": "ii 1.0", "lab-tool": "ii 1.0"])
        let run = try await Self.armedRun(lab)
        let window = try await Self.window(of: lab) { _ in true }
        #expect(window["state"] as? String == "reverted", "\(window)")
        #expect(window["restartedServices"] as? [String] == ["lab-new.service", "lab-web.service"], "\(window)")
        #expect(result.stderr.contains("the job restarted lab-new.service lab-web.service: a revert restarts them again"), "\(result.stderr)")
        #expect(result.stderr.contains("services the job restarted, restarted again (those running): lab-new.service lab-web.service"),
                "\(result.stderr)")

        let calls = systemd.recorded()
        let unit = try #require(calls.first { $0.count > 2 && $0[1] == "enable" }?.last?.dropLast(".timer".count))
        #expect(unit.hasPrefix("installtop-revert-\(run)-"), "\(calls)")
        let stop = try #require(calls.firstIndex(of: ["fake-systemctl", "disable", "--now", "--no-ask-password", "\(unit).timer"]), "\(calls)")
        let restart = try #require(calls.firstIndex(of: ["fake-systemctl", "try-restart", "--no-ask-password", "--",
                                                         "lab-new.service", "lab-web.service"]), "\(calls)")
        #expect(stop < restart, "\(calls)")
        // One try-restart, after the revert put 1.0 back.
        #expect(calls.filter { $0.contains("try-restart") }.count == 1, "\(calls)")
        #expect(calls.dropFirst(restart + 1).first == ["then: lab-app 1.0"], "\(calls)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
