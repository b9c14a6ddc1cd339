import Foundation
import InstallEngine
import InstallEngineTesting
import Testing

/// A driver's status text for the whole job (apt's downloads, a repair after the last
/// package): set, changed and cleared by the driver, carried by every snapshot, announced as
/// progress of the current update only when it changes.
@Suite("Job state machine: the driver's job message")
struct JobMachineJobMessageTests {
    private func harness(_ ids: [String]) -> JobMachineHarness {
        var job = JobMachineHarness(JobMachine(updates: ids.map { update($0) }, mode: .driver, stopOnFailure: false))
        job.start()
        return job
    }

    @Test("Set before any update started, it is announced on the current update and carried by the snapshot")
    func setBeforeAnyUpdate() {
        var job = harness(["a", "b"])
        job.driver(.jobMessage("downloading 1 of 2 · 0.5 of 1.4 kB"))
        #expect(job.changes == [.progress(index: 0)])
        #expect(job.snapshots.last?.jobMessage == "downloading 1 of 2 · 0.5 of 1.4 kB")
        #expect(job.machine.progress().jobMessage == "downloading 1 of 2 · 0.5 of 1.4 kB")
        #expect(job.machine.progress().updateResult(at: 0).resultCode == .notStarted, "a job message starts no update")
        #expect(job.machine.progress().percentComplete == 0, "nor moves the job's percent")
    }

    @Test("The same text again is not announced; a new text and a clear are, and every later snapshot carries the text as it stands")
    func changesOnly() {
        var job = harness(["a", "b"])
        job.driver(.jobMessage("downloading 1 of 2"))
        job.driver(.jobMessage("downloading 1 of 2"))
        #expect(job.changes.count == 1)
        job.driver(.jobMessage("downloading 2 of 2"))
        #expect(job.changes.count == 2)
        job.driver(.updateStarted(index: 0))
        #expect(job.snapshots.last?.jobMessage == "downloading 2 of 2", "an update's own change carries the job's text too")
        job.driver(.jobMessage(nil))
        #expect(job.changes.last == .progress(index: 0))
        #expect(job.snapshots.last?.jobMessage == nil)
        job.driver(.jobMessage(""))
        #expect(job.changes.count == 4, "an empty text is a clear, and it was clear already")
        #expect(job.machine.driverProtocolErrors == 0)
    }

    @Test("The last text stays once the job has completed; a text after that changes nothing")
    func staysAfterCompletion() {
        var job = harness(["a"])
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driver(.jobMessage("repaired: dpkg --audit is clean, apt-get check passes"))
        job.driverEnded(.exited(0))
        #expect(job.machine.isCompleted)
        let announced = job.changes.count
        job.driver(.jobMessage("later"))
        #expect(job.changes.count == announced)
        #expect(job.machine.jobMessage == "repaired: dpkg --audit is clean, apt-get check passes")
        #expect(job.machine.progress().jobMessage == "repaired: dpkg --audit is clean, apt-get check passes")
    }
}
