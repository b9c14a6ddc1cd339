import EngineWire
import Foundation
import InstallEngine
import InstallEngineTesting
import InstallHistory
import Testing
import TestProcessSupport
@testable import installtop

/// The seam of a kind, proved with a third package kind that is a test double: its folder
/// (`FakeZypperJob`, `FakeZypperJobKind`, `FakeZypperRegistration`) and one registration line
/// are all it takes for a manifest's job of it to be read, sent to an engine, planned and run
/// through the queue, and for installtop to find it by the kind its runs record.
@Suite("A third package kind: one folder and one registration line")
struct FakeZypperKindTests {
    /// The one line: this process's registry with the kind added, as `EngineHost.registry` lists it.
    static let registry: [any KindRegistration] = EngineHost.registry + [FakeZypperRegistration()]

    @Test("a manifest's zypper job is read, planned by its kind and run through the engine's queue to success")
    func manifestJobRunsThroughTheEngine() async throws {
        let kinds = EngineHost.kinds(registry: Self.registry)
        defer { kinds.removeFiles() }
        let manifest = try ManifestLoader.load(yaml: "jobs:\n  - name: tools\n    zypper: {install: [lab-a, lab-b]}\n",
                                               path: "/tmp/zypper.yaml", kinds: kinds.all)
        let job = try #require(manifest.jobs.first)
        #expect(job.kind?.description == "zypper install lab-a lab-b")
        let planned = try JobPlanner.plan(name: job.name, operation: job.operation, updates: job.updates, stopOnFailure: job.stopOnFailure,
                                          kind: job.kind)
        guard case .job(let name, let operation, let updates, let stopOnFailure, let driver) = planned else {
            Issue.record("not a job: \(planned)")
            return
        }
        #expect(name == "tools · 2 to install")
        #expect(updates.map(\.id) == ["lab-a", "lab-b"])
        let queue = JobQueue(backend: ScriptedBackend(defaultScript: .succeed))
        let queued = try queue.submit(name: name, operation: operation, updates: updates, stopOnFailure: stopOnFailure, driver: driver)
        #expect(await eventually { queue.snapshot().job(queued.id)?.phase == .completed })
        let ended = try #require(queue.snapshot().job(queued.id))
        #expect(ended.result?.resultCode == .succeeded)
        #expect(ended.updates.map(\.result.resultCode) == [.succeeded, .succeeded])
    }

    @Test("a submitted zypper job reaches the engine with its spec, and the kind's refusal is a bad argument")
    func submissionsCarryTheKind() throws {
        let kinds = EngineHost.kinds(registry: Self.registry)
        defer { kinds.removeFiles() }
        let spec = JobKindSpec(kind: FakeZypperJobKind(), spec: FakeZypperJob(packages: ["lab-a"]))
        let sent = JobSubmission(name: "tools", operation: .install, updates: [], stopOnFailure: false, kind: spec)
        #expect(sent.awaitsConfirmation, "a package kind's job waits for the operator's yes")
        let members = try #require(try JSONParser.parse(sent.json).objectValue)
        #expect(try JobSubmission(WireObject(members, context: "job"), kinds: kinds) == sent)
        let refused = try #require(try JSONParser.parse(#"{"name":"t","operation":"install","updates":[],"zypper":{"install":[]}}"#).objectValue)
        #expect(throws: WireError(.badArgument, "job.zypper: `install` names no package")) {
            _ = try JobSubmission(WireObject(refused, context: "job"), kinds: kinds)
        }
    }

    @Test("installtop finds the kind by the name its runs record, and its registration's defaults refuse its undo")
    func registrationIsFoundByItsRunsKind() throws {
        let zypper = try #require(EngineHost.registration(named: "zypper", in: Self.registry))
        #expect(EngineHost.registration(named: "zypper") == nil, "the process's own registry is unchanged")
        let run = JobRun(id: 9, kind: "zypper", name: "zypper install lab-a", operation: .install, startedAt: Date(), endedAt: Date(),
                         resultCode: .succeeded)
        #expect(throws: UndoRefusal(message: "run 9 is a zypper run, which installtop does not undo")) {
            _ = try zypper.planUndo(of: run, engineRoot: nil, history: HistoryOptions())
        }
        #expect(zypper.settle([]).isEmpty)
    }

    @Test("a kind that says only its name and job kind holds no lock, arms no engine job, rolls nothing out, keeps no observed run and has no demo job")
    func registrationDefaultsAreNone() throws {
        let zypper = try #require(EngineHost.registration(named: "zypper", in: Self.registry))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-zypper-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try HistoryStore(path: folder + "/history.sqlite3")
        #expect(zypper.lockHolder(administrativeDirectory: "/var/lib/dpkg") == nil)
        #expect(zypper.rolloutJob == nil)
        #expect(zypper.observedRunKeeping(store: store) == nil)
        #expect(zypper.demoJob() == nil)
        #expect(zypper.engineArming(of: ScriptedDriver()) == nil)
        #expect(zypper.halfWayPackages(administrativeDirectory: "/var/lib/dpkg").isEmpty)
    }
}
