import EngineWire
import Foundation
import Glibc
import InstallDrivers
import InstallEngine
import Testing

/// Rule 28 with hooks: apt holds dpkg's lock until after its Post-Invoke, so dpkg's log watcher,
/// late on a loaded machine, may come to a transaction only after the hooks' job has ended.
/// It must not make a second job of it.
@Suite("Observed transactions: dpkg's log read after the hooks' end")
struct ObservedTransactionsLateLogTests {
    @Test("the hooks' begin, dpkg's lines and end, then the log watcher's call for the same process: one job")
    func lateLogMakesNoSecondJob() async throws {
        let transaction = try ObservedTestTransaction(name: "observed-late")
        let (queue, observed) = (transaction.queue, transaction.observed)

        transaction.hooksReport([
            "processing: install: lab-a", "status: lab-a: half-installed", "status: lab-a: unpacked",
            "processing: configure: lab-a", "status: lab-a: half-configured", "status: lab-a: installed",
        ])
        await queue.waitUntilIdle()
        #expect(queue.snapshot().jobs.count == 1)

        let fromLog = observed.fromLog(transaction.holder, changes: [PackageChange(package: "lab-a", action: .install)],
                                       administrativeDirectory: transaction.folder, dpkg: nil)
        #expect(fromLog == nil, "the log watcher was handed a second job")
        await queue.waitUntilIdle()
        let names = queue.snapshot().jobs.map(\.descriptor.name)
        #expect(names.count == 1 && !names.contains { $0.contains("dpkg's log") }, "\(names)")
    }

    @Test("dpkg's lines of apt's last run after the hooks' end (dpkg never waits for its status logger): no second job; apt's next run of dpkg is a job of its own")
    func lateStatusLinesMakeNoSecondJob() async throws {
        let transaction = try ObservedTestTransaction(name: "observed-late-status")
        let (initiator, queue, observed) = (transaction.initiator, transaction.queue, transaction.observed)

        transaction.hooksReport(["processing: install: lab-a", "status: lab-a: half-installed", "status: lab-a: unpacked"])
        // The logger of the configure run, late.
        observed.receive(ObservedReport(event: .status, initiator: initiator, lines: [
            "processing: configure: lab-a", "status: lab-a: half-configured", "status: lab-a: installed",
        ]))
        // Not waitUntilIdle: a second job would never end while this process (the test stands
        // for apt) runs.
        queue.waitUntilDelivered()
        var names = queue.snapshot().jobs.map(\.descriptor.name)
        #expect(names.count == 1, "\(names)")
        guard names.count == 1 else { return }
        await queue.waitUntilIdle()

        // The same apt runs dpkg again: begin, its lines, end make a second job.
        transaction.hooksReport(["processing: install: lab-b", "status: lab-b: half-installed", "status: lab-b: installed"])
        await queue.waitUntilIdle()
        names = queue.snapshot().jobs.map(\.descriptor.name)
        #expect(names.count == 2, "\(names)")
    }
}
