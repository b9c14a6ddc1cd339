#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallHistory
import Synchronization

/// The armed run's wait in the command that ran its job: the countdown on stderr (rewritten
/// each second on a terminal; off one, a line a minute), the window read from the history
/// four times a second so a confirmation or an extension from another command is seen at once,
/// and the revert when it is due: at the deadline, or at once on a regression when asked
/// (`ConfirmWindowRules`). A revert another process (the engine) claimed is waited for.
///
/// SIGINT, SIGTERM or SIGHUP while the run is armed ends the wait, not the window: the run
/// stays armed, what happens at its deadline is said, and the command exits 3. (A revert this
/// command runs has its own job's relay: a signal then stops the revert, as it would any job.)
struct ConfirmCountdown {
    let store: HistoryStore
    let run: Int64
    /// The run's package tool, whose `revert` the operator is told of.
    let tool: String
    let historyDatabase: String
    let outputFlag: String
    /// What the command exits with when the run is kept: its job's status.
    let jobStatus: ExitStatus

    static let poll = 0.25

    /// Waits until the window is settled; returns the command's exit status: the job's when
    /// confirmed, `.reverted` when reverted, `.failed` when the revert could not be done.
    func wait() -> ExitStatus {
        let signalled = Atomic<Int32>(0)
        let relay = SignalRelay { signal, _ in signalled.store(signal, ordering: .relaxed) }
        defer { relay.cancel() }
        let onTerminal = isatty(STDERR_FILENO) == 1
        var lastLine = Date.distantPast
        var saidReverting = false
        var revertedHere = false
        var deadlineSaid: Date?
        /// The window's JSON event on stdout, with --json.
        func event(_ window: ConfirmWindow, _ name: String? = nil) {
            guard outputFlag == "--json", let line = ConfirmEventLine.line(name, for: window) else { return }
            StandardOutput.stdout.line(line)
        }
        while true {
            let window: ConfirmWindow
            do {
                guard let read = try store.confirmWindow(of: run) else { return jobStatus }
                window = read
            } catch {
                StandardOutput.stderr.line("installtop: run \(run): the history cannot be read (\(error)); retrying")
                usleep(UInt32(1 * 1_000_000))
                continue
            }
            let now = Date()
            switch window.state {
            case .confirmed:
                event(window)
                if onTerminal { StandardOutput.stderr.write("\r\u{1B}[K") }
                StandardOutput.stderr.line("installtop: run \(run) confirmed: it stays")
                return jobStatus
            case .reverted:
                event(window)
                // A revert this command ran has said its end already.
                if !revertedHere { StandardOutput.stderr.line("installtop: run \(run): " + ConfirmWindowText.line(window)) }
                return .reverted
            case .expired:
                event(window)
                if !revertedHere { StandardOutput.stderr.line("installtop: run \(run): " + ConfirmWindowText.line(window)) }
                return .failed
            case .reverting:
                if !saidReverting {
                    let who = window.reverter.map { " by pid \($0.pid)" } ?? ""
                    StandardOutput.stderr.line("installtop: run \(run) is being reverted\(who): waiting for it")
                    saidReverting = true
                }
                // A reverter that died leaves it to whoever asks next: this command.
                if window.reverter.map({ !$0.isAlive }) ?? true, claimAndRevert() {
                    revertedHere = true
                    continue
                }
            case .armed:
                let signal = signalled.load(ordering: .relaxed)
                if signal != 0 {
                    if onTerminal { StandardOutput.stderr.write("\r\u{1B}[K") }
                    StandardOutput.stderr.line("installtop: \(RunSession.name(of: signal)): run \(run) stays armed: confirm it by "
                        + "\(ConfirmWindowText.time(window.deadline)) UTC with `installtop confirm --run \(run)`, or the engine "
                        + "(installtop serve) recording into \(historyDatabase) reverts it then; `installtop \(tool) revert \(run)` reverts it now")
                    return .aborted
                }
                if deadlineSaid != window.deadline {
                    event(window, deadlineSaid == nil ? "run.armed" : "run.deadline")
                    deadlineSaid = window.deadline
                }
                if case .revert = ConfirmWindowRules.decide(.revertIfDue, on: window, at: now, reverterAlive: false) {
                    if onTerminal { StandardOutput.stderr.write("\r\u{1B}[K") }
                    revertedHere = claimAndRevert()
                    continue
                }
                let left = window.deadline.timeIntervalSince(now)
                let text = "installtop: run \(run) armed: \(ConfirmDuration.text(left)) left to confirm it "
                    + "(installtop confirm --run \(run)), or it is reverted at \(ConfirmWindowText.time(window.deadline)) UTC"
                if onTerminal {
                    StandardOutput.stderr.write("\r\u{1B}[K" + text)
                } else if now.timeIntervalSince(lastLine) >= 60 {
                    StandardOutput.stderr.line(text)
                    lastLine = now
                }
            }
            usleep(UInt32(Self.poll * 1_000_000))
        }
    }

    /// Claims the revert in the history and runs it; false when another process won the claim
    /// (or a confirmation came first). Either way the wait goes on and reads how it ended.
    private func claimAndRevert() -> Bool {
        let decision: ConfirmDecision
        do {
            decision = try store.decide(.revertIfDue, on: run)
        } catch {
            StandardOutput.stderr.line("installtop: run \(run): the history cannot record the revert (\(error)); retrying")
            return false
        }
        guard case .revert(let reason) = decision, let window = try? store.confirmWindow(of: run) else { return false }
        _ = ArmedRunRevert(window: window, reason: reason, historyDatabase: historyDatabase, outputFlag: outputFlag).perform(store: store)
        return true
    }
}
