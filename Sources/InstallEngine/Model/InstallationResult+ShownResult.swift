extension InstallationResult {
    /// The result people read for a job that ended with this result (`JobState.shownResultCode`
    /// when only the result is at hand: a rollout's line, serve's log): `failed` when any of
    /// its updates failed, though WUA's rule 16 combines a mix into `succeededWithErrors` and an
    /// abort into `aborted`; otherwise its result code. JSON and the history keep `resultCode`.
    public var shownResultCode: OperationResultCode {
        // Only a mix or an abort can hide a failure: the others need no walk over the updates.
        guard resultCode == .succeededWithErrors || resultCode == .aborted else { return resultCode }
        return updateResults.contains { $0.resultCode == .failed } ? .failed : resultCode
    }
}
