import EngineWire
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
            case .progress(let progress):
                let key = UpdateKey(job: progress.job, index: progress.index)
                let now = ContinuousClock.now
                if let last = state.lastEmitted[key], now - last < Self.progressInterval {
                    state.pending[key] = event
                    flusher.ensureRunning { [weak self] in self?.flushDue() ?? false }
                    return
                }
                state.pending[key] = nil
                state.lastEmitted[key] = now
                output.line(EventCoding.encode(event))
            case .output where !includeLogs:
                return
            case .updateCompleted(let completion):
                let key = UpdateKey(job: completion.job, index: completion.index)
                if let pending = state.pending.removeValue(forKey: key) { output.line(EventCoding.encode(pending)) }
                state.lastEmitted[key] = nil
                output.line(EventCoding.encode(event))
            default:
                output.line(EventCoding.encode(event))
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
                output.line(EventCoding.encode(event))
            }
            return !state.pending.isEmpty
        }
    }
}
