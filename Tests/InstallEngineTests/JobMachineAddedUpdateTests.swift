import Foundation
import InstallEngine
import InstallEngineTesting
import Testing

/// An update a driver adds to its running job (rule 28: an observed job without a plan gets one
/// for each package dpkg names later): appended after the last, started at once, with a
/// lifecycle and a result like every other (rule 21); refused as a protocol error by a job with
/// a plan (rule 22).
@Suite("Job state machine: updates a driver adds")
struct JobMachineAddedUpdateTests {
    private func harness(_ ids: [String], accepts: Bool) -> JobMachineHarness {
        var job = JobMachineHarness(JobMachine(updates: ids.map { update($0) }, mode: .driver, acceptsAddedUpdates: accepts))
        job.start()
        return job
    }

    @Test("Added after the last update and started at once; it ends with its own verdict, the job counts it and completes with it")
    func addedStartsAndEnds() {
        var job = harness(["first"], accepts: true)
        job.driver(.updateStarted(index: 0))
        job.driver(.updateAdded(update("second")))
        #expect(job.machine.updates.map(\.id) == ["first", "second"])
        #expect(job.changes.last == .updateAdded(index: 1, update: update("second")))
        #expect(job.machine.progress().currentUpdateIndex == 1)
        #expect(job.machine.results.map(\.resultCode) == [.inProgress, .inProgress])

        job.driver(.update(index: 1, .progress(percent: 50, message: "Unpacked")))
        #expect(job.machine.progress().currentUpdatePercentComplete == 50)
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driver(.updateFinished(index: 1, .succeeded))
        job.driverEnded(.exited(0))
        #expect(job.machine.result?.resultCode == .succeeded)
        #expect(job.machine.result?.updateResults.map(\.resultCode) == [.succeeded, .succeeded])
        #expect(job.machine.progress().percentComplete == 100)
        #expect(job.machine.driverProtocolErrors == 0)
    }

    @Test("An added update the driver never finishes gets rule 23's result when the driver ends")
    func unfinishedAddedUpdate() {
        var job = harness(["first"], accepts: true)
        job.driver(.updateFinished(index: 0, .succeeded))
        job.driver(.updateAdded(update("second")))
        job.driverEnded(.exited(0))
        #expect(job.machine.result?.updateResults.map(\.resultCode) == [.succeeded, .failed])
        #expect(job.machine.result?.resultCode == .succeededWithErrors)
    }

    @Test("A job with a plan refuses it as a protocol error, and so does any job for an id it has or once the driver ended")
    func refused() {
        var planned = harness(["first"], accepts: false)
        planned.driver(.updateAdded(update("second")))
        #expect(planned.machine.updates.map(\.id) == ["first"])
        #expect(planned.machine.driverProtocolErrors == 1)
        #expect(planned.changes.isEmpty)

        var partial = harness(["first"], accepts: true)
        partial.driver(.updateAdded(update("first")))
        #expect(partial.machine.updates.count == 1 && partial.machine.driverProtocolErrors == 1)
        partial.driverEnded(.exited(0))
        partial.driver(.updateAdded(update("late")))
        #expect(partial.machine.updates.count == 1 && partial.machine.driverProtocolErrors == 2)
    }

    @Test("Past the first chunk of results (32), added updates keep their own results")
    func manyAdded() {
        var job = harness(["u0"], accepts: true)
        for index in 1...40 { job.driver(.updateAdded(update("u\(index)"))) }
        for index in 0...40 { job.driver(.updateFinished(index: index, index == 33 ? .failed("broken") : .succeeded)) }
        job.driverEnded(.exited(0))
        let codes = job.machine.result?.updateResults.map(\.resultCode) ?? []
        #expect(codes.count == 41)
        #expect(codes.indices.allSatisfy { codes[$0] == ($0 == 33 ? .failed : .succeeded) })
    }
}
