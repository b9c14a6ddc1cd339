#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns how an update's run ended into its result (rules 11, 17 and the HResult table).
struct UpdateResultClassifier {
    /// What the engine knew about the run when it ended.
    struct Facts {
        var outcome: UpdateRunOutcome
        var abortRequested: Bool
        /// The engine's timeout fired (and no abort was requested before it): the update fails as
        /// hung however it ended, even if its TERM trap exited 0.
        var timedOut: Bool
        var timeout: Duration?
        var reportedErrors: [String]
        var rebootReported: Bool
        var rebootBehavior: RebootBehavior
        var rebootMarkerChanged: Bool
        var startedAt: Date
        var endedAt: Date
    }

    static func result(for facts: Facts) -> UpdateInstallationResult {
        var result = UpdateInstallationResult(
            resultCode: .failed, hResult: .installerFailure, reportedErrors: facts.reportedErrors,
            startedAt: facts.startedAt, endedAt: facts.endedAt)
        switch facts.outcome {
        case .exited(0) where !facts.timedOut:
            // Rule 11: an update that exits 0 keeps its real result even after an abort request.
            result.resultCode = facts.reportedErrors.isEmpty ? .succeeded : .succeededWithErrors
            result.hResult = .ok
            result.rebootRequired = facts.rebootBehavior == .always || facts.rebootReported
                || facts.rebootMarkerChanged
            if let first = facts.reportedErrors.first {
                result.reason = facts.reportedErrors.count == 1
                    ? "reported an error: \(first)"
                    : "reported \(facts.reportedErrors.count) errors, the first: \(first)"
            }
        case .exited, .signaled:
            result.unmappedResultCode = facts.outcome.unmappedCode
            classifyStopped(&result, facts: facts, otherwise: facts.outcome.summary)
        case .failedToStart(let reason):
            result.reason = reason
        }
        return result
    }

    private static func classifyStopped(_ result: inout UpdateInstallationResult, facts: Facts, otherwise: String) {
        if facts.timedOut {
            result.hResult = .installerHung
            result.reason = "timed out after \((facts.timeout ?? .zero).shortText)"
        } else if facts.abortRequested {
            result.resultCode = .aborted
            result.hResult = .operationCancelled
            result.reason = "aborted while running (\(otherwise))"
        } else {
            result.reason = otherwise + errorSuffix(facts.reportedErrors)
        }
    }

    /// What a failure's reason adds for the `error` lines the update reported: the first, and
    /// how many there were when more than one.
    static func errorSuffix(_ errors: [String]) -> String {
        guard let first = errors.first else { return "" }
        return errors.count == 1 ? ": \(first)" : ": \(first) (and \(errors.count - 1) more)"
    }
}
