import InstallHistory

extension HistoryStore {
    /// What whoever opens the history does first (a new engine, `history`, the next `installtop
    /// apt`): package runs whose engine died are settled from dpkg, with a row for every package
    /// of their plan and an end, each by its kind (`KindRegistration.settle`); then the rows still running whose
    /// writer is gone (an observed row of a run recorded before runs kept their plan, by the
    /// kind whose transactions are observed, `KindRegistration.settleObservedRows`; any other as
    /// interrupted, rule 20).
    func recoverFromDeadEngines() throws(HistoryError) {
        try recoverInterruptedRuns(settle: EngineHost.settleInterruptedRuns)
        try recoverInterruptedEntries(settle: EngineHost.settleObservedRows)
    }
}
