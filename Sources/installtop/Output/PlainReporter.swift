#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import Synchronization
import TerminalUI
import TextBasics

/// Line output for logs and pipes (`--plain`, or stdout not a terminal): one line when a job or
/// update starts and ends, progress at most every 10 % or 5 s per update (the summary table
/// at the end is `RunSummary`'s). Child text is sanitized: escape sequences are shown, never sent.
final class PlainReporter: Sendable {
    private struct Printed {
        var decile: Int
        var at: ContinuousClock.Instant
    }

    private struct State {
        var model = QueueModel(outputCapacity: 5)
        var printed: [UpdateKey: Printed] = [:]
        var jobMessages = PlainJobMessages()
    }

    /// Lines of output shown under a failed update.
    static let failureTailLines = 5
    static let quietInterval = Duration.seconds(5)

    private let output: StandardOutput
    private let sanitizer: TextSanitizer
    private let state = Mutex(State())
    private let quietCheck = OnDemandTicker(interval: .seconds(1))
    private let heldJobMessages = OnDemandTicker(interval: PlainJobMessages.interval)

    init(output: StandardOutput, sanitizer: TextSanitizer) {
        self.output = output
        self.sanitizer = sanitizer
    }

    /// Called for every engine event, in order.
    func handle(_ event: EngineEvent) {
        state.withLock { state in
            state.model.apply(event)
            jobMessageLine(for: event, state: &state)
            guard let line = line(for: event, state: &state) else { return }
            output.line(Self.clock(event.time) + " " + line)
        }
    }

    // MARK: - Lines

    private func line(for event: EngineEvent, state: inout State) -> String? {
        switch event.kind {
        case .jobQueued(let descriptor):
            let count = descriptor.updates.count
            return "job \(descriptor.id) \(clean(descriptor.name)): queued, \(descriptor.operation.name) \(count) update\(count == 1 ? "" : "s")"
        case .jobConfirmed(let confirmation):
            return "job \(confirmation.job) \(jobName(confirmation.job, state)): confirmed"
        case .jobStarted(let start):
            return "job \(start.job) \(jobName(start.job, state)): started"
        case .updateStarted(let start):
            state.printed[start.updateKey] = Printed(decile: 0, at: .now)
            quietCheck.ensureRunning { [weak self] in self?.reportQuietUpdates() ?? false }
            guard let update = state.model.job(start.job)?.updates[start.index] else { return nil }
            return "\(tag(start.job, start.index, state)) started: \(clean(update.update.title))"
        case .progress(let progress):
            let key = progress.updateKey
            let decile = progress.updatePercent.map { Int($0 / 10) } ?? 0
            guard let printed = state.printed[key], decile > printed.decile || ContinuousClock.now - printed.at >= Self.quietInterval
            else { return nil }
            state.printed[key] = Printed(decile: max(decile, printed.decile), at: .now)
            return progressLine(progress.job, progress.index, percent: progress.updatePercent, message: progress.message, state: state)
        case .output:
            return nil
        case .updateCompleted(let completion):
            state.printed[completion.updateKey] = nil
            var line = "\(tag(completion.job, completion.index, state)) \(RunSummary.word(for: completion.result))"
            if let duration = completion.result.duration { line += " in \(duration.shortText)" }
            if completion.result.resultCode != .succeeded || completion.result.mark != nil {
                var details: [String] = []
                if let reason = completion.result.reason { details.append(clean(reason)) }
                if completion.result.hResult != .ok { details.append(completion.result.hResult.description) }
                if !details.isEmpty { line += ": " + details.joined(separator: ", ") }
            }
            if completion.result.rebootRequired { line += " (reboot required)" }
            if completion.result.resultCode == .failed, let update = state.model.job(completion.job)?.updates[completion.index] {
                for output in update.output.lines.suffix(Self.failureTailLines) {
                    line += "\n    | " + clean(output.text)
                }
            }
            return line
        case .jobAbortRequested(let request):
            let job = state.model.job(request.job)
            let running = job?.runningIndex != nil
            let what = request.force ? "abort forced: killing the running update now"
                : running && job?.descriptor.runByDriver == true
                ? "abort requested: no further update starts; the running one finishes first"
                : running ? "abort requested: no further update starts; the running one gets SIGTERM"
                : "abort requested"
            return "job \(request.job) \(jobName(request.job, state)): \(what)"
        case .jobCompleted(let completion):
            let counts = RunSummary.counts(completion.result.updateResults.map(\.resultCode))
            let shown = state.model.job(completion.job)?.shownResultCode ?? completion.result.resultCode
            return "job \(completion.job) \(jobName(completion.job, state)): \(shown.word) (\(counts))"
                + (completion.result.rebootRequired ? ", reboot required" : "")
        case .jobCleanedUp:
            return nil
        }
    }

    /// The job's status text when it changed (`PlainJobMessages` says when), before the event's
    /// own line; a held one before the job's completion line.
    private func jobMessageLine(for event: EngineEvent, state: inout State) {
        let text: String?
        switch event.kind {
        case .progress(let progress):
            text = state.jobMessages.received(progress.jobMessage, job: progress.job, now: .now)
            if state.jobMessages.isHolding {
                heldJobMessages.ensureRunning { [weak self] in self?.printDueJobMessages() ?? false }
            }
        case .jobCompleted(let completion):
            text = state.jobMessages.completed(job: completion.job)
        default:
            return
        }
        guard let text else { return }
        output.line(Self.clock(event.time) + " job \(event.job) \(jobName(event.job, state)): " + clean(text))
    }

    /// Prints the held job status texts whose second is over; returns whether any is still held.
    private func printDueJobMessages() -> Bool {
        state.withLock { state in
            for (job, text) in state.jobMessages.due(now: .now) {
                output.line(Self.clock(Date()) + " job \(job) \(jobName(job, state)): " + clean(text))
            }
            return state.jobMessages.isHolding
        }
    }

    private func progressLine(_ job: Int, _ index: Int, percent: Double?, message: String?, state: State) -> String {
        var line = tag(job, index, state)
        line += percent.map { " \(Int($0))%" } ?? " running"
        if let startedAt = state.model.job(job)?.updates[index].startedAt, Date().timeIntervalSince(startedAt) >= 1 {
            line += " (\(Duration.seconds(Int64(Date().timeIntervalSince(startedAt))).shortText))"
        }
        if let message, !message.isEmpty { line += " " + clean(message) }
        return line
    }

    /// Every 5 s without a line, a running update gets one, so a log shows it is alive.
    /// Returns whether any update is still running.
    private func reportQuietUpdates() -> Bool {
        state.withLock { state in
            let now = ContinuousClock.now
            for (key, printed) in state.printed where now - printed.at >= Self.quietInterval {
                guard let update = state.model.job(key.job)?.updates[key.index],
                      update.result.resultCode == .inProgress else { continue }
                state.printed[key] = Printed(decile: printed.decile, at: now)
                output.line(Self.clock(Date()) + " "
                    + progressLine(key.job, key.index, percent: update.percent, message: update.message, state: state))
            }
            return !state.printed.isEmpty
        }
    }

    // MARK: - Helpers

    private func tag(_ job: Int, _ index: Int, _ state: State) -> String {
        let total = state.model.job(job)?.updates.count ?? 0
        let id = state.model.job(job)?.updates[index].update.id ?? "?"
        return "[\(job) \(index + 1)/\(total)] \(clean(id))"
    }

    private func jobName(_ job: Int, _ state: State) -> String {
        clean(state.model.job(job)?.descriptor.name ?? "")
    }

    private func clean(_ text: String) -> String { sanitizer.sanitize(text) }

    /// Local wall-clock time, `HH:MM:SS`, like a log line.
    private static func clock(_ date: Date) -> String {
        LocalTimeText.string(Int(date.timeIntervalSince1970), format: "%H:%M:%S")
    }
}
