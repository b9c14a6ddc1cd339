import InstallHistory

/// `installtop confirm --run RUN [--extend DURATION]`: the confirmation (or extension) of a
/// commit-confirmed run in this machine's history (`ArmedRunDecision`), so that of it and a
/// revert at the deadline exactly one wins.
struct ArmedRunConfirmation {
    let jobRun: Int64
    /// Seconds from now to wait instead of confirming; `nil` confirms.
    let extend: Double?
    let history: HistoryOptions

    func run() -> ExitStatus {
        let database = history.historyDb ?? HistoryStore.defaultPath()
        switch ArmedRunDecision(jobRun: jobRun, extend: extend, historyDatabase: database).take() {
        case .done(let said, let warning):
            StandardOutput.stdout.line(said)
            if let warning { StandardOutput.stderr.line("installtop: confirm --run \(jobRun): \(warning)") }
            return .succeeded
        case .refused(let why):
            StandardOutput.stderr.line("installtop: confirm --run \(jobRun): refused: \(why)")
            return .failed
        case .failed(let error):
            StandardOutput.stderr.line("installtop: confirm --run \(jobRun): \(error)")
            return .failed
        }
    }
}
