#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The inputs of a job run by a driver (rules 21–25): the driver, not the engine, says when
/// each update starts and how it ended.
extension JobMachine {
    /// One report of the job's driver, as `DriverReport` describes each; the actions it leads
    /// to are appended to `actions`. A runner feeds the reports a driver made together one
    /// after another, performing the actions as they come: a flood of apt's lines is
    /// thousands of reports, and one array of all their actions was most of a flood's memory.
    public mutating func driverReported(_ report: DriverReport, now: Date, into actions: inout [JobAction]) {
        switch report {
        case .updateStarted(let index): driverUpdateStarted(at: index, now: now, into: &actions)
        case .updateAdded(let update): driverUpdateAdded(update, now: now, into: &actions)
        case .update(let index, let report): driverReport(report, about: index, into: &actions)
        case .updateFinished(let index, let verdict): driverUpdateFinished(at: index, verdict: verdict, now: now, into: &actions)
        case .unstartedUpdatesFinished(let verdict): driverUnstartedUpdatesFinished(verdict: verdict, now: now, into: &actions)
        case .jobProgress(let percent): driverJobProgress(percent, into: &actions)
        case .jobMessage(let text): driverJobMessage(text, into: &actions)
        case .ignoredLine: driverIgnoredLine()
        case .linesDropped(let count): driverLinesDropped(count)
        case .protocolError: driverProtocolError()
        case .stoppedByForce(let reason): driverStoppedByForce(reason: reason)
        case .stoppedBeforeChanges: driverStoppedBeforeChanges()
        }
    }

    /// `driverReported(_:now:into:)`, returning the actions.
    public mutating func driverReported(_ report: DriverReport, now: Date) -> [JobAction] {
        var actions: [JobAction] = []
        driverReported(report, now: now, into: &actions)
        return actions
    }

    /// The driver started update `index`. A start of an update outside the plan, or of one that
    /// already started, is a protocol error: counted and ignored (rule 22).
    private mutating func driverUpdateStarted(at index: Int, now: Date, into actions: inout [JobAction]) {
        guard phase == .driverRunning, resultList.indices.contains(index), resultList[index].resultCode == .notStarted else {
            countProtocolError()
            return
        }
        markStarted(at: index, now: now, into: &actions)
    }

    /// The driver reported something about update `index`; see `receive(_:fromUpdateAt:)`.
    /// An index outside the plan is a protocol error (rule 22).
    private mutating func driverReport(_ report: UpdateReport, about index: Int, into actions: inout [JobAction]) {
        guard phase == .driverRunning, resultList.indices.contains(index) else {
            countProtocolError()
            return
        }
        receive(report, fromUpdateAt: index, into: &actions)
    }

    /// The driver says update `index` ended. An update that never started is started first (a
    /// driver may report a skipped step at once), unless the verdict is that it never started
    /// (`aborted` with `callCancelled`); a second verdict is a protocol error. The result ends
    /// at the verdict's `endedAt` when it has one (kept between the update's start and now), and
    /// has no start when the driver never saw it begin (`startUnknown`).
    /// With `stopOnFailure`, a failure asks the driver to stop at its next safe point (rule 18).
    private mutating func driverUpdateFinished(at index: Int, verdict: DriverVerdict, now: Date, into actions: inout [JobAction]) {
        guard phase == .driverRunning, resultList.indices.contains(index), !resultList[index].resultCode.isFinal else {
            countProtocolError()
            return
        }
        let neverStarted = verdict.resultCode == .aborted && verdict.hResult == .callCancelled
        // Started now for whoever follows the job, but with no start the driver could vouch for.
        let startUnknown = verdict.startUnknown && resultList[index].resultCode == .notStarted
        if resultList[index].resultCode == .notStarted, !neverStarted { markStarted(at: index, now: now, into: &actions) }
        let run = run(at: index)
        let update = updates[index]
        var code = verdict.resultCode
        if ![.succeeded, .succeededWithErrors, .failed, .aborted].contains(code) { code = .failed }
        if code == .succeeded, !run.errors.isEmpty { code = .succeededWithErrors }
        let startedAt: Date?
        if startUnknown {
            startedAt = nil
        } else if neverStarted {
            startedAt = resultList[index].startedAt
        } else {
            startedAt = resultList[index].startedAt ?? now
        }
        let endedAt = verdict.endedAt.map { min(now, max($0, startedAt ?? $0)) } ?? now
        var result = UpdateInstallationResult(
            resultCode: code, hResult: verdict.hResult ?? Self.hResult(for: code), unmappedResultCode: verdict.unmappedResultCode,
            reason: verdict.reason, reportedErrors: run.errors, startedAt: startedAt, endedAt: endedAt)
        result.mark = code.isSuccess || (neverStarted && verdict.mark == .notReached) || (code == .failed && verdict.mark == .cleared)
            ? verdict.mark : nil
        result.contradictedReport = verdict.contradictedReport
        if code.isSuccess {
            result.rebootRequired = verdict.rebootRequired ?? (update.rebootBehavior == .always || run.rebootReported)
            if result.reason == nil, let first = run.errors.first { result.reason = "reported an error: \(first)" }
        } else if code == .failed, let first = run.errors.first, !(result.reason ?? "").contains(first) {
            // The driver's verdict may not say what the update itself reported.
            result.reason = (result.reason ?? "reported an error") + UpdateResultClassifier.errorSuffix(run.errors)
        }
        let wasStopped = stoppedByFailure
        finish(at: index, with: result, into: &actions)
        if stoppedByFailure, !wasStopped, !abortRequested { actions.append(.terminate) }
    }

    /// The driver ended the job before some of its updates: each update that has not started
    /// gets `verdict`, as `driverUpdateFinished` gives it; updates in progress or finished keep
    /// theirs. The machine, not the driver, knows which have started.
    private mutating func driverUnstartedUpdatesFinished(verdict: DriverVerdict, now: Date, into actions: inout [JobAction]) {
        guard phase == .driverRunning else {
            countProtocolError()
            return
        }
        for index in resultList.indices where resultList[index].resultCode == .notStarted {
            driverUpdateFinished(at: index, verdict: verdict, now: now, into: &actions)
        }
    }

    /// The driver's own figure for the whole job. A figure outside 0…100 is a protocol error; one
    /// below the highest so far changes nothing (rule 6: the job's percent never goes down). The
    /// change is announced as progress of the current update.
    private mutating func driverJobProgress(_ percent: Double, into actions: inout [JobAction]) {
        guard phase == .driverRunning else { return }
        guard percent.isFinite, percent >= 0, percent <= 100 else {
            countProtocolError()
            return
        }
        guard raiseDriverJobPercent(to: percent) else { return }
        notify(.progress(index: currentIndex), into: &actions)
    }

    /// The driver could not read a line of its tool: counted with the job's ignored channel
    /// lines (`malformedChannelLines`), as a child's unreadable progress line is; nothing else
    /// changes. Nothing is counted once the job has completed: its result was given.
    private mutating func driverIgnoredLine() {
        guard !isCompleted else { return }
        countIgnoredLine()
    }

    /// Lines of the driver's tool were lost before the driver (`DriverReport.linesDropped`):
    /// counted; nothing else changes. Nothing is counted once the job has completed, nor a
    /// count below 1.
    private mutating func driverLinesDropped(_ count: Int) {
        guard !isCompleted, count > 0 else { return }
        droppedLines += count
    }

    /// The driver wrote a line that was not its protocol, or that named nothing of the plan:
    /// counted with the job's protocol errors; nothing else changes. Nothing is counted once the
    /// job has completed: its result was given.
    private mutating func driverProtocolError() {
        guard !isCompleted else { return }
        countProtocolError()
    }

    /// The driver's processes are gone (rule 23). Every update it did not finish gets a result:
    /// after an abort, `aborted` (`operationCancelled` if it was running, `callCancelled` if it
    /// never started); otherwise `failed` with "not reached" and the driver's exit status. Then
    /// the job completes.
    public mutating func driverEnded(outcome: UpdateRunOutcome, now: Date) -> [JobAction] {
        guard phase == .driverRunning else { return [] }
        var actions: [JobAction] = []
        let ended = outcome.summary
        for index in resultList.indices where !resultList[index].resultCode.isFinal {
            var result: UpdateInstallationResult
            let running = resultList[index].resultCode == .inProgress
            if case .failedToStart(let reason) = outcome {
                result = UpdateInstallationResult(resultCode: .failed, hResult: .installerFailure, reason: reason)
            } else if running, abortRequested {
                result = UpdateInstallationResult(
                    resultCode: .aborted, hResult: .operationCancelled, unmappedResultCode: outcome.unmappedCode,
                    reason: abortForced
                        ? "cut: the driver was killed while it ran this (\(ended))"
                        : "aborted while running (the driver \(ended))")
            } else if running {
                result = UpdateInstallationResult(
                    resultCode: .failed, hResult: .installerFailure, unmappedResultCode: outcome.unmappedCode,
                    reason: "the driver ended before it finished this (\(ended))")
            } else if abortRequested || stoppedByFailure {
                // `complete` gives these their rule 11/18 result.
                continue
            } else {
                result = UpdateInstallationResult(
                    resultCode: .failed, hResult: .installerFailure, unmappedResultCode: outcome.unmappedCode,
                    reason: "not reached (the driver \(ended))")
            }
            result.reportedErrors = run(at: index).errors
            result.startedAt = resultList[index].startedAt
            result.endedAt = now
            finish(at: index, with: result, into: &actions)
        }
        complete(into: &actions)
        return actions
    }

    private static func hResult(for code: OperationResultCode) -> HResult {
        switch code {
        case .succeeded, .succeededWithErrors: .ok
        case .aborted: .operationCancelled
        default: .installerFailure
        }
    }
}
