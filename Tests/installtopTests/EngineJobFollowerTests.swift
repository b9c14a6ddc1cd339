import Foundation
import InstallEngine
import Testing
@testable import installtop

@Suite("Following a job in an engine elsewhere: its exit status")
struct EngineJobFollowerTests {
    /// A job of two updates, both succeeded, that ended aborted (a forced stop: dpkg killed
    /// from outside, repaired), as the events over the wire give it: `job.completed` carries
    /// the job's code only.
    private func abortedAfterSuccesses() -> JobState? {
        var model = QueueModel(outputCapacity: 1)
        let updates = ["a", "b"].map { Update(id: $0, title: $0, installCommand: .argv(["/bin/true"])) }
        model.apply(EngineEvent(kind: .jobQueued(JobDescriptor(id: 1, name: "apt upgrade", operation: .install, updates: updates,
                                                                 stopOnFailure: false, runByDriver: true))))
        model.apply(EngineEvent(kind: .jobStarted(job: 1)))
        for (index, id) in ["a", "b"].enumerated() {
            model.apply(EngineEvent(kind: .updateStarted(job: 1, index: index, updateID: id)))
            model.apply(EngineEvent(kind: .updateCompleted(job: 1, index: index, updateID: id,
                                                           result: UpdateInstallationResult(resultCode: .succeeded, startedAt: Date()))))
        }
        model.apply(EngineEvent(kind: .jobCompleted(job: 1, result: InstallationResult(
            resultCode: .aborted, hResult: .operationCancelled, rebootRequired: false, updateResults: []))))
        return model.job(1)
    }

    @Test("a job aborted by force after its updates succeeded exits 3, as it does run here, not 1")
    func abortedJobExitsThree() throws {
        let state = try #require(abortedAfterSuccesses())
        let result = try #require(EngineJobFollower.result(of: state))
        #expect(result.updateResults.map(\.resultCode) == [.succeeded, .succeeded])
        #expect(ExitStatus(results: [result], unfinished: false) == .aborted)
        // What the wire's result alone gives: the bug this guards against.
        #expect(ExitStatus(results: [try #require(state.result)], unfinished: false) == .failed)
    }
}
