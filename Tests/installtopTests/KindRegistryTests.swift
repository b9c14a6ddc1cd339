import Foundation
import Glibc
import InstallEngine
import InstallHistory
import Testing
@testable import installtop

/// The kinds registered once, in one list (`EngineHost.registry`): each is found by the name its
/// runs record, the job kinds every command takes are the registry's, and a run whose engine
/// died is settled by the kind that ran it, not guessed from what it recorded.
@Suite("EngineHost.registry: each kind registered once, in one list")
struct KindRegistryTests {
    @Test("each kind's name is its manifest key and the kind its runs record, and names no other kind")
    func kindsAreNamedOnce() {
        let names = EngineHost.registry.map(\.name)
        #expect(Set(names).count == names.count)
        for kind in EngineHost.registry {
            let jobKind = kind.jobKind(keeping: nil, aptConfig: nil)
            defer { jobKind.removeFiles() }
            #expect(jobKind.key == kind.name)
            #expect(EngineHost.registration(named: kind.name)?.name == kind.name)
        }
        #expect(EngineHost.registration(named: "commands") == nil)
    }

    @Test("the job kinds of manifests, submit and serve are the registry's, in its order")
    func jobKindsAreTheRegistry() {
        let kinds = EngineHost.kinds()
        defer { kinds.removeFiles() }
        #expect(kinds.all.map(\.key) == EngineHost.registry.map(\.name))
        #expect(kinds.all.map(\.key) == ["apt", "dnf", "ansible", "driver"])
    }

    @Test("a kind that undoes nothing refuses the undo of its run in words that name its kind")
    func kindsWithoutUndoRefuse() throws {
        let driver = try #require(EngineHost.registration(named: "driver"))
        let run = JobRun(id: 5, kind: "driver", name: "deploy", operation: .install, startedAt: Date(), endedAt: Date(), resultCode: .succeeded)
        #expect(throws: UndoRefusal(message: "run 5 is a driver run, which installtop does not undo")) {
            _ = try driver.planUndo(of: run, engineRoot: EngineRoot(), history: HistoryOptions())
        }
    }

    @Test("a kind that undoes in the engine's root refuses when the engine has none, naming its own command")
    func engineRootUndoNeedsARoot() throws {
        let apt = try #require(EngineHost.registration(named: "apt"))
        let run = JobRun(id: 7, kind: "apt", name: "apt upgrade", operation: .install, startedAt: Date(), endedAt: Date(), resultCode: .succeeded)
        #expect(throws: UndoRefusal(message: "run 7 is an apt run, and this engine acts on no apt root: installtop apt undo 7 undoes it")) {
            _ = try apt.planUndo(of: run, engineRoot: nil, history: HistoryOptions())
        }
    }

    @Test("the refusals of a lookup no command asked for name the history's listing, not a tool's command")
    func lookupWithoutToolNamesNoCommand() {
        let environment = ["INSTALLTOP_SERVICE_HISTORY": "/srv/h.db"]
        let neutral = UndoRefusal.rootsHistory(holding: 3, tool: nil, verb: "undo", environment: environment)
        #expect(neutral == "; root's history may hold it: sudo installtop history --jobs (root's own), or sudo installtop history --jobs --history-db /srv/h.db (the service's)")
        let apt = UndoRefusal.rootsHistory(holding: 3, tool: "apt", verb: "undo", environment: environment)
        #expect(apt == "; root's history may hold it: sudo installtop apt undo 3 (root's own), or sudo installtop apt undo 3 --history-db /srv/h.db (the service's)")
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
