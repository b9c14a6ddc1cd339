import EngineWire
import Foundation
import Glibc
import InstallDrivers
import InstallEngine
import Testing

/// What the observed-transaction tests share: this test process stands for apt (it runs until
/// the test ends), its transaction's dpkg database is a folder that does not exist (dpkg's final
/// state never comes from the machine's), and `observed` feeds a fresh queue.
struct ObservedTestTransaction {
    let folder: String
    /// This process as the lock holder whose transaction it is.
    let holder: LockHolder
    var initiator: ObservedInitiator { holder.initiator }
    let queue: JobQueue
    let observed: ObservedTransactions

    /// - Parameter name: the start of the temporary folder's name, after the test.
    init(name: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)").path
        var holder = try #require(LockHolder(pid: getpid()))
        holder.initiator.commandLine = ["apt-get", "install", "-y", "lab-a", "--admindir=\(folder)"]
        self.holder = holder
        queue = JobQueue(backend: ProcessBackend(), configuration: EngineConfiguration(rebootMarkerPath: folder + "/reboot-required"))
        observed = ObservedTransactions(queue: queue, watchInterval: .milliseconds(20))
    }

    /// One run of dpkg as apt's hooks report it: Pre-Invoke, dpkg's status `lines`, Post-Invoke.
    func hooksReport(_ lines: [String]) {
        observed.receive(ObservedReport(event: .begin, initiator: initiator, lines: []))
        observed.receive(ObservedReport(event: .status, initiator: initiator, lines: lines))
        observed.receive(ObservedReport(event: .end, initiator: initiator, lines: []))
    }
}
