import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Synchronization

/// Writes engine events as JSON Lines (Documentation/JSON-EVENTS.md).
///
/// Progress events are coalesced to at most one per update per 50 ms; every update's first
/// progress event goes out at once and its last state is flushed before its `update.completed`,
/// so a consumer always sees where each update started and ended. A progress event that moves
/// an update to a new phase (a new status text, its bar at least a whole point above the last
/// one written: dpkg's `unpacking`, rpm's `running %post`) goes out at once too, after the
/// progress it held of the phase before (that phase's last state), so every phase shows however
/// fast the tool goes through it (rpm's for a small package take a few milliseconds), at most
/// 100 of them an update. A progress event that
/// changes the job's status text (`jobMessage`: apt's downloads, each step of a repair) goes out
/// at once too, so every text the job says is written, as the engine delivers every one. A progress event says the
/// job's percent as it is when the line is written: a held event of one update may go out after
/// a newer one of another update of the job (a driver runs several at once), and the job's
/// percent must not seem to go down; the job's `jobMessage` is likewise the newest one.
final class JSONEventWriter: Sendable {
    private struct State {
        var lastEmitted: [UpdateKey: ContinuousClock.Instant] = [:]
        /// The percent and status text last written for each update.
        var lastWritten: [UpdateKey: (percent: Double?, message: String?)] = [:]
        var pending = LatestPerUpdate<EngineEvent>()
        /// The highest job percent received per job. The engine's never goes down (rule 6), but
        /// a daemon's client outbox may deliver one update's figure for the job after a higher
        /// one of another, as it coalesces progress per update.
        var jobPercents: [Int: JobPercent] = [:]
        /// The newest job status text received per job (`nil` values: cleared); a new one is
        /// written at once, so it is also the one written last.
        var jobMessages: [Int: String?] = [:]

        /// `event` with its job percent and status text brought up to date.
        func current(_ event: EngineEvent) -> EngineEvent {
            guard case .progress(var progress) = event.kind else { return event }
            let latestMessage = jobMessages[progress.job] ?? nil
            let latestPercent = jobPercents[progress.job, default: .zero].advanced(to: progress.jobPercent).value
            guard latestPercent > progress.jobPercent || latestMessage != progress.jobMessage else { return event }
            progress.jobPercent = latestPercent
            progress.jobMessage = latestMessage
            return EngineEvent(time: event.time, kind: .progress(progress))
        }

        /// Whether `progress` moves its update to a new phase: another status text than the
        /// last written, with the bar at least a whole point higher (a text that changes on its
        /// own, a script's `progress 40 copying x`, stays coalesced while its bar creeps).
        func isNewPhase(_ progress: UpdateProgress) -> Bool {
            guard let last = lastWritten[progress.updateKey] else { return true }
            guard progress.message != last.message, let percent = progress.updatePercent else { return false }
            return percent >= (last.percent ?? 0) + 1
        }

        /// Notes what `event` says of its update as written.
        mutating func wrote(_ event: EngineEvent) {
            guard case .progress(let progress) = event.kind else { return }
            lastWritten[progress.updateKey] = (progress.updatePercent, progress.message)
        }
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
                let key = progress.updateKey
                state.jobPercents[progress.job, default: .zero].advance(to: progress.jobPercent)
                let newText = (state.jobMessages[progress.job] ?? nil) != progress.jobMessage
                state.jobMessages[progress.job] = .some(progress.jobMessage)
                let now = ContinuousClock.now
                let newPhase = state.isNewPhase(progress)
                if !newText, !newPhase, let last = state.lastEmitted[key], now - last < Self.progressInterval {
                    state.pending.keep(event, for: key)
                    flusher.ensureRunning { [weak self] in self?.flushDue() ?? false }
                    return
                }
                // The phase it ends was last where the held event says (rpm's files all written):
                // written first, so each phase's last state shows too.
                if let held = state.pending.take(key), newPhase {
                    state.wrote(held)
                    output.line(EventCoding.encode(state.current(held)))
                }
                state.lastEmitted[key] = now
                state.wrote(event)
                output.line(EventCoding.encode(state.current(event)))
            case .output where !includeLogs:
                return
            case .updateCompleted(let completion):
                let key = completion.updateKey
                if let pending = state.pending.take(key) { output.line(EventCoding.encode(state.current(pending))) }
                state.lastEmitted[key] = nil
                state.lastWritten[key] = nil
                output.line(EventCoding.encode(event))
            case .jobCompleted(let completion):
                state.jobPercents[completion.job] = nil
                state.jobMessages[completion.job] = nil
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
            let lastEmitted = state.lastEmitted
            let due = state.pending.take { key, _ in
                lastEmitted[key].map { now - $0 >= Self.progressInterval } ?? false
            }
            for (key, event) in due {
                state.lastEmitted[key] = now
                state.wrote(event)
                output.line(EventCoding.encode(state.current(event)))
            }
            return !state.pending.isEmpty
        }
    }
}
