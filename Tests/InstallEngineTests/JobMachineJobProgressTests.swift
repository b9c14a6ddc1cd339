import Foundation
import InstallEngine
import InstallEngineTesting
import Testing

/// A driver's own figure for the whole job (apt's overall percent): the job's percent is the
/// higher of it and rule 6's, and never goes down.
@Suite("Job state machine: the driver's job percent")
struct JobMachineJobProgressTests {
    private func harness(_ ids: [String]) -> JobMachineHarness {
        var job = JobMachineHarness(JobMachine(updates: ids.map { update($0) }, mode: .driver, stopOnFailure: false))
        job.start()
        return job
    }

    private var percent: (JobMachineHarness) -> Double { { $0.machine.progress().percentComplete } }

    @Test("A driver figure above rule 6's raises the job's percent, announced as progress of the current update")
    func raises() {
        var job = harness(["a", "b", "c", "d"])
        job.driver(.updateStarted(index: 1))
        #expect(percent(job) == 0)
        job.driver(.jobProgress(percent: 40))
        #expect(percent(job) == 40)
        #expect(job.changes.last == .progress(index: 1))
        #expect(job.snapshots.last?.percentComplete == 40, "the announcement carries the raised figure")
        #expect(job.machine.driverProtocolErrors == 0)
    }

    @Test("A lower later figure neither lowers the percent nor is announced")
    func neverLowers() {
        var job = harness(["a", "b"])
        job.driver(.updateStarted(index: 0))
        job.driver(.jobProgress(percent: 60))
        let announced = job.changes.count
        job.driver(.jobProgress(percent: 30))
        job.driver(.jobProgress(percent: 60))
        #expect(percent(job) == 60)
        #expect(job.changes.count == announced, "nothing changed, nothing announced")
        #expect(job.machine.driverProtocolErrors == 0, "a lower figure is not a protocol error")
    }

    @Test("Rule 6's figure wins when it is higher than the driver's")
    func ruleSixWins() {
        var job = harness(["a", "b"])
        job.driver(.updateStarted(index: 0))
        job.driver(.jobProgress(percent: 10))
        job.driver(.updateFinished(index: 0, .succeeded))
        #expect(percent(job) == 50, "one of two updates finished")
        job.driver(.jobProgress(percent: 20))
        #expect(percent(job) == 50)
        job.driver(.jobProgress(percent: 70))
        #expect(percent(job) == 70)
    }

    @Test("Figures outside 0…100, and NaN, are protocol errors and change nothing", arguments: [
        -1, 100.5, 1000, Double.nan, Double.infinity, -Double.infinity,
    ])
    func outOfRange(figure: Double) {
        var job = harness(["a", "b"])
        job.driver(.updateStarted(index: 0))
        job.driver(.jobProgress(percent: 20))
        let announced = job.changes.count
        job.driver(.jobProgress(percent: figure))
        #expect(job.machine.driverProtocolErrors == 1)
        #expect(percent(job) == 20)
        #expect(job.changes.count == announced)
    }

    @Test("The bounds 0 and 100 are valid figures")
    func bounds() {
        var job = harness(["a", "b"])
        job.driver(.updateStarted(index: 0))
        job.driver(.jobProgress(percent: 0))
        job.driver(.jobProgress(percent: 100))
        #expect(job.machine.driverProtocolErrors == 0)
        #expect(percent(job) == 100)
    }

    @Test("The job reaches 100 when every update finished, whatever the driver last said")
    func reachesHundred() {
        var job = harness(["a", "b"])
        job.driver(.updateStarted(index: 0))
        job.driver(.jobProgress(percent: 35))
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driver(.updateStarted(index: 1))
        job.driver(.updateFinished(index: 1, .failed("broken")))
        #expect(percent(job) == 100)
        job.driverEnded(.exited(100))
        #expect(percent(job) == 100)
        #expect(job.steps.last == .completed(.succeededWithErrors))
    }

    @Test("A figure after the driver ended is ignored, not counted")
    func afterEnd() {
        var job = harness(["a"])
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driverEnded(.exited(0))
        let steps = job.steps
        job.driver(.jobProgress(percent: 50))
        #expect(job.steps == steps)
        #expect(job.machine.driverProtocolErrors == 0)
    }

    @Test("A verdict aborted with callCancelled keeps that HResult (an update only prepared, never begun)")
    func abortedCallCancelled() {
        var job = harness(["a", "b"])
        job.driver(.updateStarted(index: 0))
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driver(.updateFinished(index: 1, DriverVerdict(
            resultCode: .aborted, reason: "not started: only downloaded", hResult: .callCancelled)))
        let result = job.machine.results[1]
        #expect(result.resultCode == .aborted)
        #expect(result.hResult == .callCancelled)
        #expect(result.reason == "not started: only downloaded")
        #expect(result.startedAt == nil, "an update that never began gets no start")
        #expect(!job.changes.contains(.updateStarted(index: 1)), "no update.started for an update that never began: \(job.changes)")
    }

    @Test("An aborted verdict without an HResult is operationCancelled")
    func abortedDefault() {
        var job = harness(["a"])
        job.driver(.updateStarted(index: 0))
        job.driver(.updateFinished(index: 0, DriverVerdict(resultCode: .aborted)))
        #expect(job.machine.results[0].hResult == .operationCancelled)
    }
}
