import Foundation
import InstallEngine
import InstallEngineTesting
import Testing

/// Rules 21–25 on the job's state machine: one driver runs every update of the job.
@Suite("Job state machine: drivers, rules 21–25")
struct JobMachineDriverTests {
    private func harness(_ ids: [String], stopOnFailure: Bool = false) -> JobMachineHarness {
        var job = JobMachineHarness(JobMachine(updates: ids.map { update($0) }, mode: .driver, stopOnFailure: stopOnFailure))
        job.start()
        return job
    }

    @Test("Rule 21: the driver says which update is current; each update has one lifecycle")
    func lifecycle() {
        var job = harness(["a", "b"])
        #expect(job.steps == [.startedDriver], "no child per update")
        job.driver(.updateStarted(index: 0))
        job.driver(.update(index: 0, .progress(percent: 50, message: "unpacking")))
        #expect(job.machine.progress().currentUpdateIndex == 0)
        #expect(job.machine.progress().currentUpdateMessage == "unpacking")
        #expect(job.machine.progress().percentComplete == 25)
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driver(.updateStarted(index: 1))
        #expect(job.machine.progress().currentUpdateIndex == 1)
        job.driver(.updateFinished(index: 1, .failed("dependency problems - leaving unconfigured", code: 1)))
        job.driverEnded(.exited(100))
        #expect(job.machine.results.map(\.resultCode) == [.succeeded, .failed])
        #expect(job.machine.results[1].reason == "dependency problems - leaving unconfigured")
        #expect(job.machine.results[1].hResult == .installerFailure)
        #expect(job.machine.result?.resultCode == .succeededWithErrors)
        #expect(job.changes == [
            .updateStarted(index: 0), .progress(index: 0), .updateCompleted(index: 0),
            .updateStarted(index: 1), .updateCompleted(index: 1),
        ])
    }

    @Test("A driver that knows better than its reports' times (an observed package): the end it gives is the result's; a start it never saw leaves the duration unknown, the update still announced as started")
    func verdictTimes() throws {
        var job = harness(["a", "b"])
        let started = job.now
        job.driver(.updateStarted(index: 0))
        job.advance(by: .seconds(3))
        let installed = job.now
        job.advance(by: .seconds(40))
        var seen = DriverVerdict.succeeded
        seen.endedAt = installed
        job.driver(.updateFinished(index: 0, seen))
        var unseen = DriverVerdict.succeeded
        unseen.startUnknown = true
        job.driver(.updateFinished(index: 1, unseen))
        job.driverEnded(.exited(0))
        #expect(job.machine.results[0].startedAt == started && job.machine.results[0].endedAt == installed)
        #expect(job.machine.results[0].duration == .seconds(3))
        #expect(job.machine.results[1].resultCode == .succeeded)
        #expect(job.machine.results[1].startedAt == nil && job.machine.results[1].duration == nil, "\(job.machine.results[1])")
        #expect(job.changes.contains(.updateStarted(index: 1)), "every update that ends was started, for whoever follows the job")

        // An end before the start the engine saw (the driver's clock a little behind) is the start.
        var early = harness(["a"])
        early.driver(.updateStarted(index: 0))
        var before = DriverVerdict.succeeded
        before.endedAt = early.now.addingTimeInterval(-1)
        early.driver(.updateFinished(index: 0, before))
        #expect(early.machine.results[0].duration == .zero)
    }

    @Test("Rule 13 with a driver that runs already (apt --yes): an abort before the start still starts it and tells it to stop; another driver's job completes without it",
          arguments: [false, true])
    func abortBeforeStartOfADriverThatRunsAlready(force: Bool) {
        var running = JobMachineHarness(JobMachine(updates: [update("a"), update("b")], mode: .driver, driverRunsAlready: true))
        running.abort(force: force)
        running.start()
        let acted = running.steps.filter { if case .notified = $0 { false } else { true } }
        #expect(acted == [.startedDriver, force ? .killed : .terminated],
                "left alone, its process would go on with no one watching: \(running.steps)")
        #expect(!running.machine.isCompleted, "it completes when the driver ends")
        running.driverEnded(.exited(0))
        #expect(running.machine.results.map(\.resultCode) == [.aborted, .aborted])

        var plain = JobMachineHarness(JobMachine(updates: [update("a")], mode: .driver))
        plain.abort(force: force)
        plain.start()
        #expect(!plain.steps.contains(.startedDriver))
        #expect(plain.machine.isCompleted)
    }

    @Test("A driver running already whose process was asked to stop before the job began (a signal apt --yes took in its window): the job is aborted from its start, so an update the stop left undone ends aborted however soon the driver ends")
    func driverStoppedBeforeTheJobBegan() {
        var job = JobMachineHarness(JobMachine(updates: [update("a"), update("b")], mode: .driver,
                                               driverRunsAlready: true, driverStoppedAlready: true))
        #expect(job.machine.abortRequested)
        job.start()
        #expect(job.steps.contains(.startedDriver), "its process runs: the driver watches it to its end")
        job.driver(.updateStarted(index: 0))
        job.driver(.updateFinished(index: 0, .succeeded))
        // apt stopped after a: the driver ends before anyone else asked for the abort.
        job.driverEnded(.exited(0))
        #expect(job.machine.results.map(\.resultCode) == [.succeeded, .aborted])
        #expect(job.machine.results[1].reason == "not started: the job was aborted")
        #expect(job.machine.result?.resultCode == .aborted)

        // The run's abort for that same signal comes later: the operator's first, not a second
        // that forces (rule 12); the next one forces.
        var stopped = JobMachineHarness(JobMachine(updates: [update("a")], mode: .driver, driverRunsAlready: true, driverStoppedAlready: true))
        stopped.start()
        stopped.abort(force: false)
        #expect(!stopped.machine.abortForced && !stopped.steps.contains(.killed), "\(stopped.steps)")
        stopped.abort(force: false)
        #expect(stopped.machine.abortForced && stopped.steps.contains(.killed), "\(stopped.steps)")

        var notStopped = JobMachineHarness(JobMachine(updates: [update("a")], mode: .driver, driverStoppedAlready: true))
        #expect(!notStopped.machine.abortRequested, "only a driver whose process runs already was stopped before the job")
        notStopped.start()
        #expect(notStopped.steps.contains(.startedDriver) && !notStopped.machine.isCompleted)
    }

    @Test("Output a driver prints about an update after its verdict (apt's retry of a failed configure) is kept as that update's; nothing else changes")
    func outputAfterTheVerdict() {
        var job = harness(["a", "b"])
        job.driver(.updateStarted(index: 0))
        job.driver(.update(index: 0, .output(.stdout, "Setting up a (1.0) ...")))
        job.driver(.updateFinished(index: 0, .failed("installed a package post-installation script subprocess returned error exit status 1", code: 1)))
        job.driver(.updateStarted(index: 1))
        job.driver(.updateFinished(index: 1, .succeeded))
        job.driver(.update(index: 0, .output(.stdout, "Setting up a (1.0) ...")))
        job.driver(.update(index: 0, .progress(percent: 90, message: "configuring again")))
        #expect(job.changes.suffix(2) == [.updateCompleted(index: 1), .output(index: 0, stream: .stdout, line: "Setting up a (1.0) ...")])
        #expect(job.machine.progress().currentUpdateIndex == 1, "a finished update does not become current again")
        #expect(job.machine.results.map(\.resultCode) == [.failed, .succeeded])
    }

    @Test("A failed update's reason names the errors it reported, unless the verdict already does")
    func failureReasonNamesReportedErrors() {
        var job = harness(["a", "b", "c"])
        job.driver(.updateStarted(index: 0))
        job.driver(.update(index: 0, .error("unpack failed")))
        job.driver(.updateFinished(index: 0, .failed("dpkg returned 1", code: 1)))
        job.driver(.updateStarted(index: 1))
        job.driver(.update(index: 1, .error("dependency problems - leaving unconfigured")))
        job.driver(.updateFinished(index: 1, .failed("dependency problems - leaving unconfigured", code: 1)))
        job.driver(.updateStarted(index: 2))
        job.driver(.update(index: 2, .error("disk full")))
        job.driver(.update(index: 2, .error("no space left")))
        job.driver(.updateFinished(index: 2, DriverVerdict(resultCode: .failed)))
        #expect(job.machine.results.map(\.reason) == [
            "dpkg returned 1: unpack failed", "dependency problems - leaving unconfigured",
            "reported an error: disk full (and 1 more)",
        ])
    }

    @Test("The driver's side stopping its tool before any change, after the job began, aborts the job as a stop before its start does; an operator's abort after it is their first")
    func driverStoppedBeforeChanges() {
        var job = JobMachineHarness(JobMachine(updates: [update("a"), update("b")], mode: .driver, driverRunsAlready: true))
        job.start()
        #expect(!job.machine.abortRequested)
        job.driver(.stoppedBeforeChanges)
        #expect(job.machine.abortRequested && !job.machine.abortForced)
        job.driverEnded(.exited(100))
        #expect(job.machine.results.map(\.resultCode) == [.aborted, .aborted])
        #expect(job.machine.results[0].reason == "not started: the job was aborted")
        #expect(job.machine.result?.resultCode == .aborted)

        var stopped = JobMachineHarness(JobMachine(updates: [update("a")], mode: .driver, driverRunsAlready: true))
        stopped.start()
        stopped.driver(.stoppedBeforeChanges)
        stopped.abort(force: false)
        #expect(!stopped.machine.abortForced && !stopped.steps.contains(.killed), "\(stopped.steps)")
    }

    @Test("A verdict the package database made against the tool's report says so in the update's result; others do not")
    func contradictedReportCarried() {
        var job = harness(["a", "b"])
        var contradicted = DriverVerdict.failed("apt reported it done, but dpkg shows it half-configured at 2.0 (iF) at the end")
        contradicted.contradictedReport = true
        job.driver(.updateFinished(index: 0, contradicted))
        job.driver(.updateFinished(index: 1, .succeeded))
        job.driverEnded(.exited(0))
        #expect(job.machine.results.map(\.contradictedReport) == [true, false])
    }

    @Test("Rule 21: a verdict for an update the driver never started starts it first")
    func verdictWithoutStart() {
        var job = harness(["a"])
        job.driver(.updateFinished(index: 0, .succeeded))
        #expect(job.changes == [.updateStarted(index: 0), .updateCompleted(index: 0)])
        #expect(job.machine.results[0].startedAt != nil)
    }

    @Test("Rule 22: reports outside the plan or out of the lifecycle are counted and ignored")
    func protocolErrors() {
        var job = harness(["a"])
        job.driver(.updateStarted(index: 7))
        job.driver(.update(index: -1, .message("?")))
        job.driver(.updateStarted(index: 0))
        job.driver(.updateStarted(index: 0))
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driver(.updateFinished(index: 0, .failed("again")))
        #expect(job.machine.driverProtocolErrors == 4)
        #expect(job.machine.results[0].resultCode == .succeeded)
    }

    @Test("Lines the driver's tool wrote that it could not read count as the job's ignored lines, running or not; not once the job completed")
    func ignoredLines() {
        var job = harness(["a"])
        job.driver(.ignoredLine)
        job.driver(.updateStarted(index: 0))
        job.driver(.ignoredLine)
        #expect(job.machine.malformedChannelLines == 2)
        #expect(job.machine.driverProtocolErrors == 0)
        #expect(job.changes == [.updateStarted(index: 0)], "nothing is announced")
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driverEnded(.exited(0))
        job.driver(.ignoredLine)
        #expect(job.machine.malformedChannelLines == 2)
        #expect(job.machine.results.map(\.resultCode) == [.succeeded])
    }

    @Test("Lines that never reached the driver are counted, running or not; nothing else changes; not once the job completed")
    func droppedLines() {
        var job = harness(["a"])
        job.driver(.linesDropped(2))
        job.driver(.updateStarted(index: 0))
        job.driver(.linesDropped(3))
        job.driver(.linesDropped(0))
        #expect(job.machine.droppedLines == 5)
        #expect(job.machine.malformedChannelLines == 0)
        #expect(job.machine.driverProtocolErrors == 0)
        #expect(job.changes == [.updateStarted(index: 0)], "nothing is announced")
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driverEnded(.exited(0))
        job.driver(.linesDropped(4))
        #expect(job.machine.droppedLines == 5)
        #expect(job.machine.results.map(\.resultCode) == [.succeeded])
    }

    @Test("A driver that ends a job before some updates: only the updates not started get its verdict, as never started")
    func unstartedUpdatesFinished() {
        var job = harness(["a", "b", "c"])
        job.driver(.updateStarted(index: 0))
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driver(.updateStarted(index: 1))
        job.driver(.unstartedUpdatesFinished(DriverVerdict(resultCode: .aborted, reason: "not started: stopped", hResult: .callCancelled)))
        #expect(job.machine.results.map(\.resultCode) == [.succeeded, .inProgress, .aborted])
        #expect(job.machine.results[2].hResult == .callCancelled)
        #expect(job.machine.results[2].reason == "not started: stopped")
        #expect(job.machine.results[2].startedAt == nil, "never started")
        #expect(job.machine.driverProtocolErrors == 0)
        job.driverEnded(.exited(0))
        #expect(job.machine.results[1].resultCode == .failed, "the running update is left to the driver's end")
    }

    @Test("A status text for every update (a session driver's \"stopping\" sent to the whole plan) reaches only the update in progress, and is no protocol error")
    func messageToUpdatesNotInProgress() {
        var job = harness(["a", "b", "c"])
        job.driver(.updateStarted(index: 0))
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driver(.updateStarted(index: 1))
        let before = job.changes.count
        for index in 0..<3 { job.driver(.update(index: index, .message("stopping after this task"))) }
        #expect(Array(job.changes.dropFirst(before)) == [.progress(index: 1)])
        #expect(job.machine.progress().currentUpdateIndex == 1)
        #expect(job.machine.progress().currentUpdateMessage == "stopping after this task")
        #expect(job.machine.results.map(\.resultCode) == [.succeeded, .inProgress, .notStarted])
        #expect(job.machine.driverProtocolErrors == 0)
    }

    @Test("Rule 23: updates the driver did not finish fail as not reached, with its exit status")
    func notReached() {
        var job = harness(["a", "b", "c"])
        job.driver(.updateStarted(index: 0))
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driver(.updateStarted(index: 1))
        job.driverEnded(.exited(2))
        let results = job.machine.results
        #expect(results[1].resultCode == .failed)
        #expect(results[1].reason == "the driver ended before it finished this (exited with status 2)")
        #expect(results[2].resultCode == .failed)
        #expect(results[2].reason == "not reached (the driver exited with status 2)")
        #expect(results[2].unmappedResultCode == 2)
        #expect(job.steps.last == .completed(.succeededWithErrors))
    }

    @Test("Rule 23: a driver that cannot start fails every update with the cause")
    func failedToStart() {
        var job = harness(["a", "b"])
        job.driverEnded(.failedToStart("cannot run apt-get: No such file or directory"))
        #expect(job.machine.results.allSatisfy { $0.resultCode == .failed && $0.reason == "cannot run apt-get: No such file or directory" })
        #expect(job.machine.result?.hResult == .allUpdatesFailed)
    }

    @Test("Rule 24: abort asks for the next safe point, without a timer; the running update keeps its real result")
    func safeStop() {
        var job = harness(["a", "b", "c"])
        job.driver(.updateStarted(index: 0))
        job.abort()
        #expect(job.terminations == 1)
        #expect(job.timers.isEmpty, "no grace timer: a safe point may be minutes away")
        job.advance(by: .seconds(3600))
        #expect(job.kills == 0)
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driverEnded(.exited(0))
        let results = job.machine.results
        #expect(results[0].resultCode == .succeeded)
        #expect(results[1].resultCode == .aborted && results[1].hResult == .callCancelled)
        #expect(results[2].reason == "not started: the job was aborted")
        #expect(job.machine.result?.resultCode == .aborted)
    }

    @Test("Rule 25: a second request kills the driver; the cut update is aborted and says so")
    func forcedStop() {
        var job = harness(["a", "b"])
        job.driver(.updateStarted(index: 0))
        job.abort()
        job.abort()
        #expect(job.kills == 1)
        job.driverEnded(.signaled(9))
        let cut = job.machine.results[0]
        #expect(cut.resultCode == .aborted)
        #expect(cut.hResult == .operationCancelled)
        #expect(cut.reason == "cut: the driver was killed while it ran this (killed by signal 9 (Killed))")
        #expect(job.machine.results[1].hResult == .callCancelled)
    }

    @Test("Rule 25: the driver's own verdict on the cut update (what state it left) wins")
    func driverExplainsTheCut() {
        var job = harness(["a"])
        job.driver(.updateStarted(index: 0))
        job.abort(force: true)
        job.driver(.updateFinished(index: 0, DriverVerdict(
            resultCode: .aborted, reason: "cut while unpacking; dpkg --configure -a repaired it")))
        job.driverEnded(.signaled(9))
        #expect(job.machine.results[0].reason == "cut while unpacking; dpkg --configure -a repaired it")
        #expect(job.machine.results[0].hResult == .operationCancelled)
    }

    @Test("Rule 18 with a driver: a failure asks the driver to stop at its next safe point")
    func stopOnFailure() {
        var job = harness(["a", "b"], stopOnFailure: true)
        job.driver(.updateStarted(index: 0))
        job.driver(.updateFinished(index: 0, .failed("post-installation script returned error exit status 1")))
        #expect(job.terminations == 1)
        job.driverEnded(.exited(100))
        #expect(job.machine.results[1].reason == "not started: an earlier update failed and the job stops on failure")
        #expect(job.machine.result?.resultCode == .succeededWithErrors)
    }

    @Test("Rule 26: the driver's word on a reboot wins; without it, rule 17")
    func reboot() {
        var job = JobMachineHarness(JobMachine(updates: [update("a"), update("b", reboot: .always), update("c")], mode: .driver))
        job.start()
        job.driver(.updateFinished(index: 0, DriverVerdict(resultCode: .succeeded, rebootRequired: true)))
        job.driver(.updateFinished(index: 1, .succeeded))
        job.driver(.updateStarted(index: 2))
        job.driver(.update(index: 2, .rebootRequired))
        job.driver(.updateFinished(index: 2, DriverVerdict(resultCode: .succeeded, rebootRequired: false)))
        job.driverEnded(.exited(0))
        #expect(job.machine.results.map(\.rebootRequired) == [true, true, false])
    }
}
