import CSpawnFloor
import Foundation
import InstallEngine
import InstallHistory

/// The least a runner can cost that gives each child what Documentation/MANIFESTS-AND-DRIVERS.md promises (CSpawnFloor:
/// one thread, plain C), optionally recording every update in the history through installtop's
/// own recorder, as a job does: the running row before the child starts, its end after.
///
/// It shows how much of installtop's figure is the contract and the history themselves, which
/// no implementation can avoid, and how much is installtop.
final class SpawnFloor {
    private let recorder: HistoryRecorder?
    private let job: Int
    private let updateIDs: [String]

    private init(recorder: HistoryRecorder?, job: Int, runs: Int) {
        self.recorder = recorder
        self.job = job
        updateIDs = (0..<runs).map { "u\($0)" }
    }

    /// Runs `runs` × /bin/true; with a recorder, as job `job` (a number the recorder has not
    /// seen). Prints and stops at the first error.
    static func run(_ runs: Int, recordingTo recorder: HistoryRecorder? = nil, job: Int = 1) {
        let floor = SpawnFloor(recorder: recorder, job: job, runs: runs)
        floor.queueJob()
        let environment = ["INSTALLTOP_PROGRESS_FD=3", "INSTALLTOP_UPDATE_ID=u", "INSTALLTOP_OPERATION=install", "INSTALLTOP_JOB=\(job)"]
        let strings = environment.map { strdup($0) } + [nil]
        defer { strings.forEach { free($0) } }
        let context = Unmanaged.passUnretained(floor).toOpaque()
        let hooks: (spawn_floor_hook?, spawn_floor_hook?) = recorder == nil ? (nil, nil) : (
            { index, context in Unmanaged<SpawnFloor>.fromOpaque(context!).takeUnretainedValue().started(Int(index)) },
            { index, context in Unmanaged<SpawnFloor>.fromOpaque(context!).takeUnretainedValue().ended(Int(index)) }
        )
        let error = strings.map { UnsafePointer($0) }.withUnsafeBufferPointer {
            spawn_floor_run(Int32(runs), $0.baseAddress, hooks.0, hooks.1, context)
        }
        if error != 0 { print("  spawn floor failed: \(String(cString: strerror(error)))") }
        floor.completeJob()
    }

    private func queueJob() {
        let updates = updateIDs.map { Update(id: $0, installCommand: .argv(["/bin/true"])) }
        record(.jobQueued(JobDescriptor(id: job, name: "floor", operation: .install, updates: updates, stopOnFailure: false)))
        record(.jobStarted(job: job))
    }

    private func started(_ index: Int) {
        record(.updateStarted(job: job, index: index, updateID: updateIDs[index]))
    }

    private func ended(_ index: Int) {
        let result = UpdateInstallationResult(resultCode: .succeeded, startedAt: Date(), endedAt: Date())
        record(.updateCompleted(job: job, index: index, updateID: updateIDs[index], result: result))
    }

    /// Writes the last row, which the recorder holds back for a moment (see HistoryRecorder).
    private func completeJob() {
        recording { try $0.flush() }
    }

    private func record(_ kind: EngineEvent.Kind) {
        recording { try $0.record(EngineEvent(kind: kind)) }
    }

    /// Does `body` with the recorder, if there is one; a failure is printed, and the run goes on.
    private func recording(_ body: (HistoryRecorder) throws -> Void) {
        guard let recorder else { return }
        do {
            try body(recorder)
        } catch {
            print("  recording failed: \(error)")
        }
    }
}
