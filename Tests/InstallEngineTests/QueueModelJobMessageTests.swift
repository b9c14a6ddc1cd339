import Foundation
import InstallEngine
import Testing

/// The job's status text as consumers see it (`JobState.jobMessage`): each progress event says
/// it as it stands, and a late subscriber's replay carries it.
@Suite("Queue model: the job's status text")
struct QueueModelJobMessageTests {
    private static let descriptor = JobDescriptor(
        id: 3, name: "apt install lab-app", operation: .install, updates: [Update(id: "lab-base"), Update(id: "lab-app")],
        stopOnFailure: false, runByDriver: true)

    private func model(_ kinds: [EngineEvent.Kind]) -> QueueModel {
        var model = QueueModel()
        for kind in kinds { model.apply(EngineEvent(kind: kind)) }
        return model
    }

    @Test("Set by a progress event, cleared by one without it; a replay rebuilds it, before any update started too")
    func setClearedAndReplayed() throws {
        let downloading: [EngineEvent.Kind] = [
            .jobQueued(Self.descriptor), .jobStarted(job: 3),
            .progress(job: 3, index: 0, updatePercent: nil, jobPercent: 0, message: nil, jobMessage: "downloading 1 of 2 · 0.4 of 1.4 kB"),
        ]
        let during = model(downloading)
        #expect(during.job(3)?.jobMessage == "downloading 1 of 2 · 0.4 of 1.4 kB")
        var replayed = QueueModel()
        for event in during.replayEvents() { replayed.apply(event) }
        #expect(replayed.job(3)?.jobMessage == "downloading 1 of 2 · 0.4 of 1.4 kB")
        #expect(replayed.job(3)?.updates[0].result.resultCode == .notStarted, "the replay starts no update")

        let after = model(downloading + [
            .updateStarted(job: 3, index: 0, updateID: "lab-base"),
            .progress(job: 3, index: 0, updatePercent: 30, jobPercent: 10, message: "preparing"),
        ])
        #expect(after.job(3)?.jobMessage == nil)
        var replayedAfter = QueueModel()
        for event in after.replayEvents() { replayedAfter.apply(event) }
        #expect(replayedAfter.job(3)?.jobMessage == nil)
        #expect(replayedAfter.job(3)?.updates[0].percent == 30 && replayedAfter.job(3)?.updates[0].message == "preparing")
    }
}
