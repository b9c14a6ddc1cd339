import Foundation
import InstallEngine
import InstallEngineTesting
import Testing

/// Rule 25a on the job's state machine: a driver whose tool was stopped by force from outside
/// (apt-get or dpkg killed by a signal installtop did not send) ends its job as a forced abort.
@Suite("Job state machine: a driver stopped by force from outside, rule 25a")
struct JobMachineStoppedByForceTests {
    private func harness(_ ids: [String]) -> JobMachineHarness {
        var job = JobMachineHarness(JobMachine(updates: ids.map { update($0) }, mode: .driver, stopOnFailure: false))
        job.start()
        return job
    }

    @Test("The job ends aborted, the cut update as the driver said, those never started aborted with what stopped it; nothing is signalled")
    func endsAsAForcedAbort() {
        var job = harness(["a", "b", "c"])
        job.driver(.updateStarted(index: 0))
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driver(.updateStarted(index: 1))
        let steps = job.steps
        job.driver(.stoppedByForce(reason: "dpkg was killed by signal 9 (Killed) during b's postinst"))
        #expect(job.steps == steps, "the tool is gone: nothing to kill or stop")
        job.driver(.updateFinished(index: 1, DriverVerdict(resultCode: .aborted, reason: "cut", hResult: .operationCancelled)))
        job.driverEnded(.exited(100))
        #expect(job.machine.results.map(\.resultCode) == [.succeeded, .aborted, .aborted])
        #expect(job.machine.results[2].reason == "not started: dpkg was killed by signal 9 (Killed) during b's postinst")
        #expect(job.machine.results[2].hResult == .callCancelled)
        #expect(job.machine.result?.resultCode == .aborted)
    }

    @Test("Every update succeeded (the repair completed them): the job is still aborted, as after a forced abort")
    func repairedJobIsAborted() {
        var job = harness(["a"])
        job.driver(.updateStarted(index: 0))
        job.driver(.stoppedByForce(reason: "apt-get was killed by signal 9 (Killed)"))
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driverEnded(.signaled(9))
        #expect(job.machine.result?.resultCode == .aborted)
    }

    @Test("After completion, or after the operator's forced abort, it changes nothing")
    func ignoredLate() {
        var job = harness(["a", "b"])
        job.driver(.updateStarted(index: 0))
        job.abort(force: true)
        job.driver(.stoppedByForce(reason: "dpkg was killed by signal 9 (Killed)"))
        job.driverEnded(.signaled(9))
        #expect(job.machine.results[1].reason == "not started: the job was aborted")

        var done = harness(["a"])
        done.driver(.updateStarted(index: 0))
        done.driver(.updateFinished(index: 0, .succeeded))
        done.driverEnded(.exited(0))
        done.driver(.stoppedByForce(reason: "late"))
        #expect(done.machine.result?.resultCode == .succeeded)
    }
}
