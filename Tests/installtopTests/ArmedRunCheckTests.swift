import Foundation
import InstallEngine
import InstallHistory
import TestProcessSupport
import Testing
@testable import installtop

/// An armed run's checks run again by its engine (`checkRun`, `ArmedRunCheck`): the checks its
/// window recorded (its `--check` commands, its checks folder), compared with the checks before
/// its job as after the job, recorded in its window; a run not armed is refused, nothing run.
@Suite("Commit-confirmed: a run's checks run again")
struct ArmedRunCheckTests {
    /// A history holding run 1 armed with `--check 'test ! -e MARKER'` and a checks folder
    /// holding `site` (`test ! -e SITE-MARKER`) and `old` (always failing), its baseline taken
    /// by the probe now; `checks: false` records a window of before v14.
    private struct Lab {
        let folder: String
        let store: HistoryStore
        let run: Int64
        var history: String { folder + "/history.sqlite3" }
        var marker: String { folder + "/broken" }
        var siteMarker: String { folder + "/site-broken" }
        var command: String { "test ! -e '\(marker)'" }
        var site: String { folder + "/checks/site" }

        init(checks: Bool = true, revertOnRegression: Bool = true) throws {
            folder = NSTemporaryDirectory() + "armed-run-check-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder + "/checks", withIntermediateDirectories: true)
            try ExecutableFile.write("#!/bin/sh\ntest ! -e '\(folder)/site-broken'\n", to: folder + "/checks/site")
            try ExecutableFile.write("#!/bin/sh\necho never passes; exit 3\n", to: folder + "/checks/old")
            store = try HistoryStore(path: folder + "/history.sqlite3")
            let now = Date()
            run = try store.reserveJobRun(kind: "apt", name: "patch night · 1 to upgrade", operation: .install, startedAt: now)
            let probe = HealthProbe(commands: ["test ! -e '\(folder)/broken'"], checksDirectory: folder + "/checks")
            let baseline = probe.observe()
            var window = ConfirmWindow(run: run, armedAt: now, deadline: now.addingTimeInterval(600), revertOnRegression: revertOnRegression)
            if checks {
                window.checks = probe.commands
                window.checksDirectory = probe.checksDirectory
            }
            try store.armConfirmWindow(window, baseline: baseline, checkedAfter: baseline)
        }

        func take() -> ArmedRunCheck.Outcome {
            ArmedRunCheck(jobRun: run, historyDatabase: history).take()
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    /// The regressions of the lab's own checks (the machine's ports may come and go).
    private static func own(_ regressions: [String], _ lab: Lab) -> [String] {
        regressions.filter { $0.hasPrefix(lab.command) || $0.hasPrefix(lab.folder) }
    }

    @Test("Checks that still pass: no regression, the window armed, its checks run again recorded; a check that failed before is none either")
    func passed() throws {
        let lab = try Lab()
        defer { lab.remove() }
        guard case .checked(let checked) = lab.take() else {
            Issue.record("an armed run's checks run again")
            return
        }
        #expect(Self.own(checked.regressions, lab).isEmpty, "\(checked.regressions)")
        if checked.regressions.isEmpty { #expect(checked.said == "run \(lab.run): checks run again: passed" && !checked.reverts) }
        let window = try #require(try lab.store.confirmWindow(of: lab.run))
        #expect(window.state == .armed && window.checkedAgainAt != nil)
        #expect(window.checks == [lab.command] && window.checksDirectory == lab.folder + "/checks")
    }

    @Test("A check of the folder and a --check command that passed before and fail now regress: added to the window's regressions, said, and due at once (revertOnRegression)")
    func regressed() throws {
        let lab = try Lab()
        defer { lab.remove() }
        #expect(FileManager.default.createFile(atPath: lab.marker, contents: nil))
        #expect(FileManager.default.createFile(atPath: lab.siteMarker, contents: nil))
        guard case .checked(let checked) = lab.take() else {
            Issue.record("an armed run's checks run again")
            return
        }
        let expected = ["\(lab.site): passed → failed: exit status 1", "\(lab.command): passed → failed: exit status 1"]
        #expect(Self.own(checked.regressions, lab) == expected, "\(checked.regressions)")
        #expect(checked.reverts && checked.said.hasSuffix("regressed; it is reverted at once") && checked.said.contains(expected[0]), "\(checked.said)")
        let window = try #require(try lab.store.confirmWindow(of: lab.run))
        #expect(expected.allSatisfy { text in window.regressions.contains { $0.text == text } }, "\(window.regressions)")
        guard case .revert(let why) = ConfirmWindowRules.decide(.revertIfDue, on: window, at: Date(), reverterAlive: false) else {
            Issue.record("a regression of a window that reverts on one is due at once")
            return
        }
        #expect(why.contains(expected[0]), "\(why)")
        // In `history --jobs`: the regression and when the checks were run again.
        let table = JobRunTable.render(try lab.store.jobRuns(), width: 400)
        #expect(table.contains("regressed: \(expected[0])") && table.contains("checks run again at "), "\(table)")
    }

    @Test("Without revertOnRegression a regression is recorded and said, and the run waits for its deadline")
    func regressedWithoutRevert() throws {
        let lab = try Lab(revertOnRegression: false)
        defer { lab.remove() }
        #expect(FileManager.default.createFile(atPath: lab.marker, contents: nil))
        guard case .checked(let checked) = lab.take() else {
            Issue.record("an armed run's checks run again")
            return
        }
        #expect(!checked.reverts && checked.said.contains("unless confirmed"), "\(checked.said)")
        #expect(try lab.store.confirmWindow(of: lab.run)?.state == .armed)
    }

    @Test("A run confirmed, a run never armed and a window that does not say its checks are refused, nothing run or recorded")
    func refused() throws {
        let lab = try Lab()
        defer { lab.remove() }
        #expect(try lab.store.decide(.confirm, on: lab.run) == .confirmed)
        #expect(FileManager.default.createFile(atPath: lab.marker, contents: nil))
        guard case .refused(let why) = lab.take() else {
            Issue.record("a confirmed run's checks are not run again")
            return
        }
        #expect(why.hasPrefix("run \(lab.run) is not armed: it was confirmed at ") && why.hasSuffix("; its checks are not run again"), "\(why)")
        let window = try #require(try lab.store.confirmWindow(of: lab.run))
        #expect(window.regressions.isEmpty && window.checkedAgainAt == nil)

        guard case .refused(let never) = ArmedRunCheck(jobRun: 99, historyDatabase: lab.history).take() else {
            Issue.record("a run never armed has no checks")
            return
        }
        #expect(never == "run 99 was not armed (no --confirm): it has no checks to run again")

        let old = try Lab(checks: false)
        defer { old.remove() }
        guard case .refused(let unknown) = old.take() else {
            Issue.record("a window of before v14 does not say its checks")
            return
        }
        #expect(unknown.contains("does not say which checks it ran"), "\(unknown)")
        #expect(try old.store.confirmWindow(of: old.run)?.checkedAgainAt == nil)
    }
}
