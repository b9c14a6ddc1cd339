#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallHistory

/// `installtop confirm --run RUN [--extend DURATION]`: the confirmation (or extension) of a
/// commit-confirmed run, decided and recorded by the history in one transaction
/// (`HistoryStore.decide`), so that of it and a revert at the deadline exactly one wins. The
/// run's systemd timer (`RevertTimer`) is stopped by a confirmation and moved by an extension.
struct ArmedRunConfirmation {
    let jobRun: Int64
    /// Seconds from now to wait instead of confirming; `nil` confirms.
    let extend: Double?
    let history: HistoryOptions

    func run() -> ExitStatus {
        let database = history.historyDb ?? HistoryStore.defaultPath()
        let decision: ConfirmDecision
        do {
            let store = try HistoryStore(path: database, createIfMissing: false)
            decision = try store.decide(extend.map { .extend(seconds: $0) } ?? .confirm, on: jobRun)
        } catch {
            StandardOutput.stderr.line("installtop: confirm --run \(jobRun): \(error)")
            return .failed
        }
        switch decision {
        case .confirmed:
            RevertTimer(run: jobRun, historyDatabase: database).stop()
            StandardOutput.stdout.line("run \(jobRun): confirmed, it stays")
            return .succeeded
        case .extended(let deadline):
            let timer = RevertTimer(run: jobRun, historyDatabase: database).move(to: deadline)
            StandardOutput.stdout.line("run \(jobRun): deadline moved to \(ConfirmWindowText.time(deadline)) UTC")
            if case .failed(let why) = timer {
                StandardOutput.stderr.line("installtop: confirm --run \(jobRun): systemd's timer was not moved (\(why)): "
                    + "the engine reverts the run at its new deadline")
            }
            return .succeeded
        case .refused(let why):
            StandardOutput.stderr.line("installtop: confirm --run \(jobRun): refused: \(why)")
            return .failed
        case .revert, .wait:
            // A confirmation or an extension is never decided as a revert or a wait.
            return .failed
        }
    }
}
