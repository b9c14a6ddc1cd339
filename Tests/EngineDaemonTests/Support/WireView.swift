import EngineWire
import Foundation
import InstallEngine

/// What of the engine's state a daemon client can know, without times: the queue and events
/// reduced to what crosses the wire (update commands and environments stay in the engine,
/// percentages have two decimals, `job.completed` carries no per-update results).
enum WireView {
    private static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    /// `kind` as a client reads it back, with times removed.
    static func kind(_ kind: EngineEvent.Kind) -> EngineEvent.Kind {
        let line = EventCoding.encode(EngineEvent(time: epoch, kind: kind))
        guard case .object(let members)? = try? JSONParser.parse(line),
            let name = members["event"]?.stringValue,
            let decoded = try? EventCoding.decode(name: name, members)
        else { return kind }
        switch decoded.kind {
        case .updateCompleted(var completion):
            completion.result.startedAt = nil
            completion.result.endedAt = nil
            return .updateCompleted(completion)
        default:
            return decoded.kind
        }
    }

    static func kinds(_ events: [EngineEvent]) -> [EngineEvent.Kind] { events.map { kind($0.kind) } }

    /// One job as a client can know it.
    struct Job: Hashable {
        var id: Int
        var name: String
        var operation: UpdateOperation
        var stopOnFailure: Bool
        var phase: JobPhase
        var percent: Double
        var abortRequested: Bool
        var abortForced: Bool
        var resultCode: OperationResultCode?
        var hResult: HResult?
        var rebootRequired: Bool?
        var started: Bool
        var updates: [Update]
    }

    struct Update: Hashable {
        var id: String
        var revision: Int
        var title: String
        var result: UpdateInstallationResult
        var percent: Double?
        var message: String?
        var started: Bool
        var output: [OutputLine]
    }

    /// - Parameter finishedUpdateStatus: false leaves out the percentage and status text of
    ///   updates that have finished, which a late subscriber's replay does not carry (a known
    ///   gap of `QueueModel.replayEvents()`).
    static func jobs(_ model: QueueModel, finishedUpdateStatus: Bool = true) -> [Job] {
        model.jobs.map { job in
            Job(
                id: job.id, name: job.descriptor.name, operation: job.descriptor.operation,
                stopOnFailure: job.descriptor.stopOnFailure, phase: job.phase, percent: rounded(job.percent),
                abortRequested: job.abortRequested, abortForced: job.abortForced, resultCode: job.result?.resultCode,
                hResult: job.result?.hResult, rebootRequired: job.result?.rebootRequired, started: job.startedAt != nil,
                updates: job.updates.map { state in
                    var result = state.result
                    result.startedAt = nil
                    result.endedAt = nil
                    let status = finishedUpdateStatus || !result.resultCode.isFinal
                    return Update(
                        id: state.update.id, revision: state.update.revision, title: state.update.title, result: result,
                        percent: status ? state.percent.map(rounded) : nil, message: status ? state.message : nil,
                        started: state.startedAt != nil,
                        output: Array(state.output.lines))
                })
        }
    }

    /// Two decimals, as `JSONObject` writes numbers.
    private static func rounded(_ value: Double) -> Double { (value * 100).rounded() / 100 }
}
