import Foundation
import InstallEngine
import InstallEngineTesting
import Testing

/// Rules 1–18 on the job's state machine, with a manual clock: no process, no sleep.
/// (Rules 14–15 wait on a running job and are tested on `InstallationJob`; 19–20 are history's.)
@Suite("Job state machine: rules 1–18 with a manual clock")
struct JobMachineRuleTests {
    private func harness(_ updates: [Update], stopOnFailure: Bool = false) -> JobMachineHarness {
        JobMachineHarness(JobMachine(updates: updates, stopOnFailure: stopOnFailure))
    }

    @Test("Rules 1–2: an empty list and an exclusive update mixed with others are refused")
    func refusals() {
        #expect(throws: InstallerError.noUpdate) { try UpdateInstaller.validate([], for: .install) }
        #expect(throws: InstallerError.exclusiveInstallConflict) {
            try UpdateInstaller.validate([update("a", impact: .exclusive), update("b")], for: .install)
        }
        #expect(throws: Never.self) { try UpdateInstaller.validate([update("a", impact: .exclusive)], for: .install) }
    }

    @Test("Rules 4 and 8: updates run one after another; callbacks come in the order of the changes")
    func orderOfChanges() {
        var job = harness([update("a"), update("b")])
        job.start()
        #expect(job.steps == [.notified(.updateStarted(index: 0)), .startedUpdate(0)])
        job.launched(0)
        job.report(.progress(percent: 40, message: "half"), from: 0)
        job.report(.output(.stdout, "hello"), from: 0)
        job.ended(0, .exited(0))
        job.run(1)
        #expect(job.steps == [
            .notified(.updateStarted(index: 0)), .startedUpdate(0),
            .notified(.progress(index: 0)), .notified(.output(index: 0, stream: .stdout, line: "hello")),
            .notified(.updateCompleted(index: 0)), .notified(.updateStarted(index: 1)), .startedUpdate(1),
            .notified(.updateCompleted(index: 1)), .completed(.succeeded),
        ])
        #expect(job.machine.results.count == 2, "result indices are positions in the snapshot")
    }

    @Test("Rule 5: a snapshot never changes after it is returned")
    func snapshotsAreValues() {
        var job = harness([update("a")])
        job.start()
        job.launched(0)
        let before = job.machine.progress()
        job.report(.progress(percent: 70, message: nil), from: 0)
        job.ended(0, .exited(0))
        #expect(before.currentUpdatePercentComplete == 0)
        #expect(before.updateResult(at: 0).resultCode == .inProgress)
        #expect(job.machine.progress().updateResult(at: 0).resultCode == .succeeded)
    }

    @Test("Rule 6: equal weight per update; neither percentage goes down; no-change reports are not events")
    func percentages() {
        var job = harness([update("a"), update("b"), update("c"), update("d")])
        job.start()
        job.launched(0)
        job.report(.progress(percent: 50, message: nil), from: 0)
        #expect(job.snapshots.last?.percentComplete == 12.5)
        let events = job.steps.count
        job.report(.progress(percent: 30, message: nil), from: 0)
        job.report(.progress(percent: 50, message: nil), from: 0)
        #expect(job.steps.count == events, "a lower or equal percentage is no event")
        #expect(job.machine.progress().currentUpdatePercentComplete == 50)
        job.report(.progress(percent: 250, message: nil), from: 0)
        #expect(job.machine.progress().currentUpdatePercentComplete == 100, "clamped to 100")
        job.ended(0, .exited(0))
        job.launched(1)
        job.report(.progress(percent: 50, message: nil), from: 1)
        #expect(job.machine.progress().percentComplete == 37.5)
        job.ended(1, .exited(3))
        job.run(2)
        job.run(3)
        let figures = job.snapshots.map(\.percentComplete)
        #expect(figures == figures.sorted(), "the job's percentage never goes down: \(figures)")
        #expect(job.machine.progress().percentComplete == 100)
    }

    @Test("Rule 7: an update that reports no percentage stays indeterminate; with progress none, percentages are ignored")
    func indeterminate() {
        var job = harness([update("a", progress: .none)])
        job.start()
        job.launched(0)
        #expect(job.machine.progress().currentUpdateIsIndeterminate)
        job.report(.progress(percent: 60, message: nil), from: 0)
        #expect(job.machine.progress().currentUpdateIsIndeterminate)
        job.report(.progress(percent: 60, message: "copying"), from: 0)
        #expect(job.machine.progress().currentUpdateIsIndeterminate)
        #expect(job.machine.progress().currentUpdateMessage == "copying")
    }

    @Test("Rule 9: the job completes exactly once, and nothing comes after its completion")
    func completesOnce() {
        var job = harness([update("a")])
        job.start()
        job.run(0)
        #expect(job.machine.isCompleted)
        let steps = job.steps
        job.ended(0, .exited(1))
        job.report(.progress(percent: 10, message: nil), from: 0)
        job.abort()
        job.advance(by: .seconds(3600))
        #expect(job.steps == steps)
        #expect(steps.count { if case .completed = $0 { true } else { false } } == 1)
        #expect(steps.last == .completed(.succeeded))
    }

    @Test("Rules 10–11: abort terminates the running update, kills it after the grace, and starts nothing more")
    func abortGrace() {
        var job = harness([update("a", abortGrace: .seconds(10)), update("b"), update("c")])
        job.start()
        job.launched(0)
        job.advance(by: .seconds(5))
        job.abort()
        #expect(job.terminations == 1)
        #expect(job.changes.last == .abortRequested(force: false))
        job.advance(by: .milliseconds(9_999))
        #expect(job.kills == 0, "not before the grace is over")
        job.advance(by: .milliseconds(1))
        #expect(job.kills == 1)
        job.ended(0, .signaled(9))
        let results = job.machine.results
        #expect(results[0].resultCode == .aborted)
        #expect(results[0].hResult == .operationCancelled)
        #expect(results[0].unmappedResultCode == 128 + 9)
        #expect(results[1].hResult == .callCancelled && results[2].hResult == .callCancelled)
        #expect(results[1].reason == "not started: the job was aborted")
        #expect(!job.steps.contains(.startedUpdate(1)))
        #expect(job.steps.last == .completed(.aborted))
    }

    @Test("Rule 11: an update that exits 0 after the request keeps its result; the grace timer dies with it")
    func exitZeroKeepsResult() {
        var job = harness([update("a", reboot: .always), update("b")])
        job.start()
        job.launched(0)
        job.abort()
        job.ended(0, .exited(0))
        #expect(job.timers.isEmpty)
        job.advance(by: .seconds(60))
        #expect(job.kills == 0)
        #expect(job.machine.results[0].resultCode == .succeeded)
        #expect(job.machine.result?.resultCode == .aborted)
        #expect(job.machine.result?.rebootRequired == true)
    }

    @Test("Rule 11: an abort while the child is being started reaches it once it exists")
    func abortWhileLaunching() {
        var job = harness([update("a")])
        job.start()
        job.abort()
        #expect(job.terminations == 0, "nothing to signal yet")
        job.launched(0)
        #expect(job.terminations == 1)
        #expect(job.timers[.abortGrace(index: 0)] != nil)
    }

    @Test("Rule 11: a late grace timer of a finished update never kills the next one")
    func lateTimerIsIgnored() {
        var job = harness([update("a", timeout: .seconds(5)), update("b")])
        job.start()
        job.launched(0)
        job.ended(0, .exited(0))
        job.launched(1)
        job.perform(timer: .timeout(index: 0))
        job.perform(timer: .abortGrace(index: 0))
        #expect(job.kills == 0)
    }

    @Test("Rule 12: a second request kills at once; later ones do nothing")
    func secondRequestEscalates() {
        var job = harness([update("a", abortGrace: .seconds(3600))])
        job.start()
        job.launched(0)
        job.abort()
        job.abort()
        job.abort()
        #expect(job.kills == 1)
        #expect(job.changes.filter { if case .abortRequested = $0 { true } else { false } }
            == [.abortRequested(force: false), .abortRequested(force: true)])
        job.ended(0, .signaled(9))
        #expect(job.machine.result?.resultCode == .aborted)
    }

    @Test("Rule 13: abort before the start completes with every update aborted; after completion it does nothing")
    func abortBeforeStartAndAfterEnd() {
        var queued = harness([update("a"), update("b")])
        queued.abort()
        queued.start()
        #expect(!queued.steps.contains(.startedUpdate(0)))
        #expect(queued.machine.results.allSatisfy { $0.resultCode == .aborted && $0.hResult == .callCancelled })
        #expect(queued.steps.last == .completed(.aborted))

        var done = harness([update("a")])
        done.start()
        done.run(0)
        let steps = done.steps
        done.abort(force: true)
        #expect(done.steps == steps)
        #expect(done.machine.result?.resultCode == .succeeded)
    }

    @Test("Timeout: an update past its limit gets SIGTERM, a countdown, SIGKILL after its grace, and fails as hung")
    func timeout() {
        var job = harness([update("a", timeout: .seconds(30), abortGrace: .milliseconds(2500)), update("b")])
        job.start()
        job.launched(0)
        job.advance(by: .seconds(29))
        #expect(job.terminations == 0)
        job.advance(by: .seconds(1))
        #expect(job.terminations == 1, "a timeout asks first, so a TERM trap can run")
        #expect(job.kills == 0)
        #expect(job.machine.progress().currentUpdateMessage == "timed out after 30s; killing in 3s")
        job.advance(by: .seconds(1))
        #expect(job.machine.progress().currentUpdateMessage == "timed out after 30s; killing in 2s")
        job.advance(by: .seconds(1))
        #expect(job.machine.progress().currentUpdateMessage == "timed out after 30s; killing in 1s")
        #expect(job.kills == 0)
        job.advance(by: .milliseconds(499))
        #expect(job.kills == 0)
        job.advance(by: .milliseconds(1))
        #expect(job.kills == 1, "SIGKILL when the grace is over")
        job.ended(0, .signaled(9))
        #expect(job.machine.results[0].resultCode == .failed)
        #expect(job.machine.results[0].hResult == .installerHung)
        #expect(job.machine.results[0].reason == "timed out after 30s")
        #expect(job.steps.contains(.startedUpdate(1)), "a hung update does not stop the job")
        #expect(job.timers.isEmpty, "the countdown of an ended update stops")

        var trapped = harness([update("a", timeout: .seconds(5))])
        trapped.start()
        trapped.launched(0)
        trapped.advance(by: .seconds(6))
        trapped.ended(0, .exited(0))
        #expect(trapped.kills == 0)
        #expect(trapped.machine.results[0].resultCode == .failed, "a TERM trap exiting 0 does not turn a timeout into a success")
        #expect(trapped.machine.results[0].hResult == .installerHung)

        var aborted = harness([update("a", timeout: .seconds(30), abortGrace: .seconds(60))])
        aborted.start()
        aborted.launched(0)
        aborted.abort()
        aborted.advance(by: .seconds(30))
        #expect(aborted.kills == 1)
        aborted.ended(0, .signaled(9))
        #expect(aborted.machine.results[0].resultCode == .aborted)
    }

    @Test("Rule 16: the job's result from its updates' results")
    func jobResult() {
        func run(_ outcomes: [UpdateRunOutcome]) -> InstallationResult? {
            var job = harness(outcomes.indices.map { update("u\($0)") })
            job.start()
            for (index, outcome) in outcomes.enumerated() { job.run(index, outcome) }
            return job.machine.result
        }
        #expect(run([.exited(0), .exited(0)])?.resultCode == .succeeded)
        #expect(run([.exited(1), .signaled(15)])?.resultCode == .failed)
        #expect(run([.exited(1), .signaled(15)])?.hResult == .allUpdatesFailed)
        #expect(run([.exited(0), .exited(2)])?.resultCode == .succeededWithErrors)
        #expect(run([.failedToStart("cannot run ./x: Permission denied")])?.resultCode == .failed)
    }

    @Test("Rule 17: reboot required when the update succeeded and said so, its behaviour is always, or the marker changed")
    func rebootRequired() {
        var job = harness([update("said"), update("always", reboot: .always), update("marker"),
                           update("quiet"), update("failed", reboot: .always)])
        job.start()
        job.launched(0)
        job.report(.rebootRequired, from: 0)
        job.ended(0, .exited(0))
        job.run(1)
        job.launched(2)
        job.ended(2, .exited(0), rebootMarkerChanged: true)
        job.run(3)
        job.run(4, .exited(1))
        #expect(job.machine.results.map(\.rebootRequired) == [true, true, true, false, false])
        #expect(job.machine.result?.rebootRequired == true)
    }

    @Test("Rule 17: errors reported by an update that exits 0 make it succeededWithErrors")
    func reportedErrors() {
        var job = harness([update("a")])
        job.start()
        job.launched(0)
        job.report(.error("disk almost full"), from: 0)
        job.ended(0, .exited(0))
        #expect(job.machine.results[0].resultCode == .succeededWithErrors)
        #expect(job.machine.results[0].reason == "reported an error: disk almost full")
    }

    @Test("A failed update's reason names the errors it reported")
    func reportedErrorsInFailureReason() {
        var job = harness([update("a"), update("b")])
        job.start()
        job.launched(0)
        job.report(.error("unpack failed"), from: 0)
        job.ended(0, .exited(1))
        #expect(job.machine.results[0].reason == "exited with status 1: unpack failed")
        job.launched(1)
        job.report(.error("unpack failed"), from: 1)
        job.report(.error("disk full"), from: 1)
        job.ended(1, .exited(2))
        #expect(job.machine.results[1].reason == "exited with status 2: unpack failed (and 1 more)")
    }

    @Test("Rule 18: a failure does not stop the job, unless it stops on failure")
    func stopOnFailure() {
        var goesOn = harness([update("a"), update("b")])
        goesOn.start()
        goesOn.run(0, .exited(1))
        #expect(goesOn.steps.contains(.startedUpdate(1)))

        var stops = harness([update("a"), update("b"), update("c")], stopOnFailure: true)
        stops.start()
        stops.run(0, .exited(1))
        #expect(!stops.steps.contains(.startedUpdate(1)))
        #expect(stops.machine.results[1].resultCode == .aborted)
        #expect(stops.machine.results[1].hResult == .callCancelled)
        #expect(stops.machine.results[1].reason == "not started: an earlier update failed and the job stops on failure")
        // Rule 16 without the abort clause: one failed and two aborted is a mix.
        #expect(stops.machine.result?.resultCode == .succeededWithErrors)
    }
}
