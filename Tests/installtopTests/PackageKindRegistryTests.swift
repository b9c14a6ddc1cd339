import Foundation
import Glibc
import InstallEngine
import InstallHistory
import Testing
@testable import installtop

/// The package kinds registered once (`EngineHost.packageKinds`): each is found by the name its
/// runs record, and a run whose engine died is settled by the kind that ran it, not guessed
/// from what it recorded.
@Suite("EngineHost.packageKinds: each package kind's capabilities registered once")
struct PackageKindRegistryTests {
    @Test("each kind's name is its manifest key and the kind its runs record, and names no other kind")
    func kindsAreNamedOnce() {
        let names = EngineHost.packageKinds.map(\.name)
        #expect(Set(names).count == names.count)
        for kind in EngineHost.packageKinds {
            let jobKind = kind.jobKind(keeping: nil, aptConfig: nil)
            defer { jobKind.removeFiles() }
            #expect(jobKind.key == kind.name)
            #expect(EngineHost.packageKind(named: kind.name)?.name == kind.name)
        }
        #expect(EngineHost.packageKind(named: "commands") == nil)
    }

    @Test("an interrupted run is settled by its kind: a dnf run waits while dnf's lock is held in its root; a run of no package kind is left alone")
    func interruptedRunsGoToTheirKind() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("itop-kinds-\(getpid())-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/var/lib/dnf", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        // dnf's lock names a live process (this one): its transaction may still run.
        try "\(getpid())\n".write(toFile: root + "/var/lib/dnf/rpmdb_lock.pid", atomically: true, encoding: .utf8)
        let plan = [PackageChange(package: "lab-a", action: .upgrade, oldVersion: "1.0-1", newVersion: "2.0-1")]
        func run(_ id: Int64, kind: String) -> InterruptedRun {
            InterruptedRun(id: id, kind: kind, name: "job", operation: .install, startedAt: Date(), observed: false,
                           origin: JobRunOrigin(writer: nil, plan: plan, administrativeDirectory: nil, dpkgLog: nil, installRoot: root),
                           rows: [])
        }
        let settled = EngineHost.settleInterruptedRuns([run(1, kind: "dnf"), run(2, kind: "apt"), run(3, kind: "commands")])
        #expect(settled[1] == .stillRunning)
        // apt settles from dpkg's database, which this run did not record: no word on it.
        #expect(settled[2] == nil)
        #expect(settled[3] == nil)
    }
}
