#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallHistory

/// A confirmation or an extension of a commit-confirmed run, whoever asks (`installtop confirm
/// --run`, the engine's `confirmRun` from the board or `--hosts`): decided in the history in
/// one transaction against the revert (`HistoryStore.decide`), then systemd's timer stopped or
/// moved with it (`RevertTimer`).
struct ArmedRunDecision {
    let jobRun: Int64
    /// Seconds from now to wait instead of confirming; `nil` confirms.
    let extend: Double?
    let historyDatabase: String

    /// What was done, in a sentence (`run 12: confirmed, it stays`), with a warning when the
    /// timer could not follow; or why nothing was (`refused`), or the history's error.
    enum Outcome {
        case done(String, warning: String?)
        case refused(String)
        case failed(String)
    }

    func take() -> Outcome {
        let decision: ConfirmDecision
        let tool: String
        do {
            let store = try HistoryStore(path: historyDatabase, createIfMissing: false)
            decision = try store.decide(extend.map { .extend(seconds: $0) } ?? .confirm, on: jobRun)
            tool = (try? store.confirmWindow(of: jobRun))?.tool ?? "apt"
        } catch {
            return .failed("\(error)")
        }
        let timer = RevertTimer(run: jobRun, historyDatabase: historyDatabase, tool: tool)
        switch decision {
        case .confirmed:
            timer.stop()
            return .done("run \(jobRun): confirmed, it stays", warning: nil)
        case .extended(let deadline):
            var warning: String?
            if case .failed(let why) = timer.move(to: deadline) {
                warning = "systemd's timer was not moved (\(why)): the engine reverts the run at its new deadline"
            }
            return .done("run \(jobRun): deadline moved to \(ConfirmWindowText.time(deadline)) UTC", warning: warning)
        case .refused(let why):
            return .refused(why)
        case .revert, .wait:
            // A confirmation or an extension is never decided as a revert or a wait.
            return .refused("run \(jobRun): nothing was decided")
        }
    }
}
