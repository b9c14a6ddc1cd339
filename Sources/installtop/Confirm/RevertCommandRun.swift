import InstallHistory

/// `installtop apt revert RUN [--due]` and `installtop dnf revert RUN [--due]`: the revert of a
/// commit-confirmed run decided in the history (`HistoryStore.decide`: `--due` only once its
/// deadline passed, or a check regressed and it asked for a revert then) and, when claimed,
/// run (`ArmedRunRevert`). A run armed by the other tool is refused before anything is
/// decided, saying which command reverts it.
struct RevertCommandRun {
    /// The command's tool: `apt` or `dnf`.
    let tool: String
    let jobRun: Int
    let due: Bool
    let history: HistoryOptions
    let json: Bool

    /// 7 reverted; 0 with `--due` when nothing is due yet; 1 refused, or the undo failed.
    func run() -> ExitStatus {
        let name = "\(tool) revert \(jobRun)"
        let database = history.historyDb ?? HistoryStore.defaultPath()
        let store: HistoryStore
        let decision: ConfirmDecision
        do {
            store = try HistoryStore(path: database, createIfMissing: false)
            if let window = try store.confirmWindow(of: Int64(jobRun)), window.tool != tool {
                StandardOutput.stderr.line("installtop: \(name): nothing was run: run \(jobRun) is a \(window.tool) run: "
                    + "installtop \(window.tool) revert \(jobRun) reverts it")
                return .failed
            }
            decision = try store.decide(due ? .revertIfDue : .revertNow, on: Int64(jobRun))
        } catch {
            StandardOutput.stderr.line("installtop: \(name): nothing was run: \(error)")
            return .failed
        }
        switch decision {
        case .revert(let reason):
            guard let window = try? store.confirmWindow(of: Int64(jobRun)) else { return .failed }
            return ArmedRunRevert(window: window, reason: reason, historyDatabase: database,
                                  outputFlag: json ? "--json" : "--plain").perform(store: store)
        case .wait(let deadline):
            StandardOutput.stdout.line("run \(jobRun): not due: its deadline is \(ConfirmWindowText.time(deadline)) UTC")
            return .succeeded
        case .refused(let why):
            StandardOutput.stderr.line("installtop: \(name): nothing was run: \(why)")
            return .failed
        case .confirmed, .extended:
            // A revert is never decided as a confirmation or an extension.
            return .failed
        }
    }
}
