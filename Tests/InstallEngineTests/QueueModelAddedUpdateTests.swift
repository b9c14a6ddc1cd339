import Foundation
import InstallEngine
import Testing

/// An update added to a running job (rule 28) as consumers see it: `update.started` with
/// `added` appends it to the job, and a late subscriber's replay has it in `job.queued`.
@Suite("Queue model: updates added to a running job")
struct QueueModelAddedUpdateTests {
    private static let descriptor = JobDescriptor(
        id: 5, name: "dpkg -i first.deb second.deb (plan partial: from dpkg's lines)", operation: .install,
        updates: [Update(id: "first")], stopOnFailure: false, runByDriver: true)

    @Test("The added update is appended, runs and completes; the job's percent counts it; a replay rebuilds the same job")
    func appendedAndReplayed() throws {
        var model = QueueModel()
        let kinds: [EngineEvent.Kind] = [
            .jobQueued(Self.descriptor), .jobStarted(job: 5),
            .updateStarted(job: 5, index: 0, updateID: "first"),
            .updateStarted(job: 5, index: 1, updateID: "second", added: Update(id: "second", title: "second 2.0")),
            .updateCompleted(job: 5, index: 0, updateID: "first", result: UpdateInstallationResult(resultCode: .succeeded)),
        ]
        for kind in kinds { model.apply(EngineEvent(kind: kind)) }
        let job = try #require(model.job(5))
        #expect(job.updates.map(\.update.id) == ["first", "second"])
        #expect(job.descriptor.updates.map(\.title) == ["first", "second 2.0"])
        #expect(job.updates[1].result.resultCode == .inProgress)
        #expect(job.percent == 50, "one of two finished")

        var replayed = QueueModel()
        for event in model.replayEvents() { replayed.apply(event) }
        #expect(replayed.job(5)?.updates.map(\.update.id) == ["first", "second"])
        #expect(replayed.job(5)?.updates[1].result.resultCode == .inProgress)
    }

    @Test("An `added` at an index other than the job's update count adds nothing (a replayed or repeated event)")
    func wrongIndexAddsNothing() {
        var model = QueueModel()
        model.apply(EngineEvent(kind: .jobQueued(Self.descriptor)))
        model.apply(EngineEvent(kind: .updateStarted(job: 5, index: 3, updateID: "x", added: Update(id: "x"))))
        model.apply(EngineEvent(kind: .updateStarted(job: 5, index: 0, updateID: "first", added: Update(id: "first"))))
        #expect(model.job(5)?.updates.map(\.update.id) == ["first"])
    }
}
