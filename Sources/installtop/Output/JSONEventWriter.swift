import Foundation
import InstallEngine
import Synchronization

/// Writes engine events as JSON Lines (PRODUCT.md "JSON events").
///
/// Progress events are coalesced to at most one per update per 50 ms; every update's first
/// progress event goes out at once and its last state is flushed before its `update.completed`,
/// so a consumer always sees where each update started and ended.
final class JSONEventWriter: Sendable {
    private struct State {
        var lastEmitted: [UpdateKey: ContinuousClock.Instant] = [:]
        var pending: [UpdateKey: EngineEvent] = [:]
    }

    static let progressInterval = Duration.milliseconds(50)

    private let output: StandardOutput
    private let includeLogs: Bool
    private let state = Mutex(State())
    private let flusher = OnDemandTicker(interval: JSONEventWriter.progressInterval)

    init(output: StandardOutput, includeLogs: Bool) {
        self.output = output
        self.includeLogs = includeLogs
    }

    /// Called for every engine event, in order.
    func handle(_ event: EngineEvent) {
        state.withLock { state in
            switch event.kind {
            case .progress(let job, let index, _, _, _):
                let key = UpdateKey(job: job, index: index)
                let now = ContinuousClock.now
                if let last = state.lastEmitted[key], now - last < Self.progressInterval {
                    state.pending[key] = event
                    flusher.ensureRunning { [weak self] in self?.flushDue() ?? false }
                    return
                }
                state.pending[key] = nil
                state.lastEmitted[key] = now
                output.line(Self.encode(event))
            case .output where !includeLogs:
                return
            case .updateCompleted(let job, let index, _, _):
                let key = UpdateKey(job: job, index: index)
                if let pending = state.pending.removeValue(forKey: key) { output.line(Self.encode(pending)) }
                state.lastEmitted[key] = nil
                output.line(Self.encode(event))
            default:
                output.line(Self.encode(event))
            }
        }
    }

    /// Emits pending progress that has waited its interval, so a quiet update's last state
    /// shows; returns whether any is still pending.
    private func flushDue() -> Bool {
        state.withLock { state in
            let now = ContinuousClock.now
            for (key, event) in state.pending.sorted(by: { ($0.key.job, $0.key.index) < ($1.key.job, $1.key.index) }) {
                guard let last = state.lastEmitted[key], now - last >= Self.progressInterval else { continue }
                state.pending[key] = nil
                state.lastEmitted[key] = now
                output.line(Self.encode(event))
            }
            return !state.pending.isEmpty
        }
    }

    // MARK: - Encoding

    /// One event as a JSON object with the contract's field names.
    static func encode(_ event: EngineEvent) -> String {
        var object = JSONObject()
        switch event.kind {
        case .jobQueued(let descriptor):
            object.add("event", "job.queued")
            object.add("job", descriptor.id)
            object.add("name", descriptor.name)
            object.add("operation", descriptor.operation.name)
            let updates = descriptor.updates.enumerated().map { index, update in
                var item = JSONObject()
                item.add("index", index)
                item.add("id", update.id)
                item.add("title", update.title)
                return item.json
            }
            object.addRaw("updates", "[" + updates.joined(separator: ",") + "]")
        case .jobStarted(let job):
            object.add("event", "job.started")
            object.add("job", job)
        case .updateStarted(let job, let index, let updateID):
            object.add("event", "update.started")
            object.add("job", job)
            object.add("index", index)
            object.add("id", updateID)
        case .progress(let job, let index, let updatePercent, let jobPercent, let message):
            object.add("event", "progress")
            object.add("job", job)
            object.add("index", index)
            if let updatePercent { object.add("updatePercent", updatePercent) } else { object.addNull("updatePercent") }
            object.add("jobPercent", jobPercent)
            if let message { object.add("message", message) } else { object.addNull("message") }
        case .output(let job, let index, let stream, let line):
            object.add("event", "log")
            object.add("job", job)
            object.add("index", index)
            object.add("stream", stream.rawValue)
            object.add("line", line)
        case .updateCompleted(let job, let index, let updateID, let result):
            object.add("event", "update.completed")
            object.add("job", job)
            object.add("index", index)
            object.add("id", updateID)
            object.add("resultCode", result.resultCode.rawValue)
            object.add("result", result.resultCode.name)
            object.add("hResult", result.hResult.description)
            object.add("unmappedResultCode", result.unmappedResultCode)
            object.add("rebootRequired", result.rebootRequired)
            object.add("durationMs", Int(result.duration?.wholeMilliseconds ?? 0))
            if let reason = result.reason { object.add("reason", reason) }
        case .jobAbortRequested(let job, let force):
            object.add("event", "job.abortRequested")
            object.add("job", job)
            if force { object.add("force", true) }
        case .jobCompleted(let job, let result):
            object.add("event", "job.completed")
            object.add("job", job)
            object.add("resultCode", result.resultCode.rawValue)
            object.add("result", result.resultCode.name)
            object.add("hResult", result.hResult.description)
            object.add("rebootRequired", result.rebootRequired)
        case .jobCleanedUp(let job):
            object.add("event", "job.cleanedUp")
            object.add("job", job)
        }
        object.add("time", RFC3339.string(from: event.time))
        return object.json
    }
}
