import Foundation
import InstallEngine

/// Shorthands for the engine events of one job, fed to the recorder by hand.
enum EngineEvents {
    /// 2023-11-14 22:13:20 UTC, plus `seconds`.
    static func time(_ seconds: Double) -> Date {
        Date(timeIntervalSince1970: 1_700_000_000 + seconds)
    }

    static func job(
        _ id: Int, name: String = "Security updates", operation: UpdateOperation = .install, updates: [Update]
    ) -> JobDescriptor {
        JobDescriptor(id: id, name: name, operation: operation, updates: updates, stopOnFailure: false)
    }

    static func queued(_ descriptor: JobDescriptor, at seconds: Double = 0) -> EngineEvent {
        EngineEvent(time: time(seconds), kind: .jobQueued(descriptor))
    }

    static func started(_ job: Int, at seconds: Double) -> EngineEvent {
        EngineEvent(time: time(seconds), kind: .jobStarted(job: job))
    }

    static func updateStarted(_ job: Int, _ index: Int, _ id: String, at seconds: Double) -> EngineEvent {
        EngineEvent(time: time(seconds), kind: .updateStarted(job: job, index: index, updateID: id))
    }

    static func output(_ job: Int, _ index: Int, _ line: String, at seconds: Double) -> EngineEvent {
        EngineEvent(time: time(seconds), kind: .output(job: job, index: index, stream: .stdout, line: line))
    }

    static func updateCompleted(
        _ job: Int, _ index: Int, _ id: String, _ result: UpdateInstallationResult, at seconds: Double
    ) -> EngineEvent {
        EngineEvent(time: time(seconds), kind: .updateCompleted(job: job, index: index, updateID: id, result: result))
    }

    static func completed(_ job: Int, _ results: [UpdateInstallationResult], at seconds: Double) -> EngineEvent {
        EngineEvent(
            time: time(seconds),
            kind: .jobCompleted(job: job, result: .combining(results, abortRequested: false)))
    }
}
