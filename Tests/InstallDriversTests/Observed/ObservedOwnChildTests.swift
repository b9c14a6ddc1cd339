import EngineWire
import Foundation
import Glibc
import InstallDrivers
import InstallEngine
import Testing

/// An engine's own apt job runs apt-get as the engine's child: it holds dpkg's lock and runs
/// the hooks like any apt-get, but the job shows it already. It must not also become an
/// observed job (from the hooks or from dpkg's log), which `serve --apt-config` on the same
/// root, or `serve` on the real one, showed beside each apt job it ran.
@Suite("Observed transactions: the engine's own apt-get")
struct ObservedOwnChildTests {
    private static let lines = [
        "processing: install: lab-a", "status: lab-a: half-installed", "status: lab-a: unpacked",
        "processing: configure: lab-a", "status: lab-a: half-configured", "status: lab-a: installed",
    ]

    @Test("a child of the engine's process is no observed job, from dpkg's log or from the hooks; another process is")
    func ownChildIsNotObserved() throws {
        let transaction = try ObservedTestTransaction(name: "observed-own")
        let (queue, observed) = (transaction.queue, transaction.observed)
        let logged = try Self.spawnSleep()
        let hooked = try Self.spawnSleep()
        defer {
            Self.end(logged)
            Self.end(hooked)
        }

        let fromLog = observed.fromLog(try #require(LockHolder(pid: logged)), changes: [PackageChange(package: "lab-a", action: .install)],
                                       administrativeDirectory: transaction.folder, dpkg: nil)
        #expect(fromLog == nil, "dpkg's log made a job of the engine's own apt-get")
        observed.receive(ObservedReport(event: .status, initiator: try #require(LockHolder(pid: hooked)).initiator, lines: Self.lines))
        queue.waitUntilDelivered()
        #expect(queue.snapshot().jobs.isEmpty, "\(queue.snapshot().jobs.map(\.descriptor.name))")

        // This process is no child of itself: its transaction is observed as before.
        observed.receive(ObservedReport(event: .status, initiator: transaction.initiator, lines: Self.lines))
        observed.receive(ObservedReport(event: .end, initiator: transaction.initiator, lines: []))
        // Not waitUntilIdle: were the children's jobs made after all, the one from dpkg's log
        // would wait for a watcher's end that never comes.
        queue.waitUntilDelivered()
        #expect(queue.snapshot().jobs.count == 1)
    }

    @Test("a child of the engine's process that is gone before its log lines are looked at is no observed job either")
    func ownChildGoneIsNotObserved() throws {
        let transaction = try ObservedTestTransaction(name: "observed-own-gone")
        let child = try Self.spawnSleep()
        let holder = try #require(LockHolder(pid: child))
        // As a short step after an apt job (apt-get check) ends between the watcher's two reads.
        Self.end(child)
        let fromLog = transaction.observed.fromLog(holder, changes: [PackageChange(package: "lab-a", action: .install)],
                                                   administrativeDirectory: transaction.folder, dpkg: nil)
        #expect(fromLog == nil, "dpkg's log made a job of the engine's own finished child")
        transaction.queue.waitUntilDelivered()
        #expect(transaction.queue.snapshot().jobs.isEmpty)
    }

    /// `sleep 60`, a child of this process standing for an apt job's apt-get.
    private static func spawnSleep() throws -> pid_t {
        var pid: pid_t = 0
        let arguments = ["/bin/sleep", "60"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let result = posix_spawn(&pid, "/bin/sleep", nil, nil, argv, environ)
        try #require(result == 0, "posix_spawn: \(String(cString: strerror(result)))")
        return pid
    }

    private static func end(_ pid: pid_t) {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    }
}
