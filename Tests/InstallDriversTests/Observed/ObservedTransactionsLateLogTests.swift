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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("observed-late-\(UUID().uuidString)").path
        // This test's own process stands for apt: it runs until the test ends.
        var holder = try #require(LockHolder(pid: getpid()))
        // dpkg's final state comes from a database that does not exist, never the machine's.
        holder.initiator.commandLine = ["apt-get", "install", "-y", "lab-a", "--admindir=\(folder)"]
        let queue = JobQueue(backend: ProcessBackend(), configuration: EngineConfiguration(rebootMarkerPath: folder + "/reboot-required"))
        let observed = ObservedTransactions(queue: queue, watchInterval: .milliseconds(20))

        observed.receive(ObservedReport(event: .begin, initiator: holder.initiator, lines: []))
        observed.receive(ObservedReport(event: .status, initiator: holder.initiator, lines: [
            "processing: install: lab-a", "status: lab-a: half-installed", "status: lab-a: unpacked",
            "processing: configure: lab-a", "status: lab-a: half-configured", "status: lab-a: installed",
        ]))
        observed.receive(ObservedReport(event: .end, initiator: holder.initiator, lines: []))
        await queue.waitUntilIdle()
        #expect(queue.snapshot().jobs.count == 1)

        let fromLog = observed.fromLog(holder, changes: [PackageChange(package: "lab-a", action: .install)],
                                       administrativeDirectory: folder, dpkg: nil)
        #expect(fromLog == nil, "the log watcher was handed a second job")
        await queue.waitUntilIdle()
        let names = queue.snapshot().jobs.map(\.descriptor.name)
        #expect(names.count == 1 && !names.contains { $0.contains("dpkg's log") }, "\(names)")
    }
}
