extension JobState {
    /// The result people read for a completed job (monitor, `status`, the plain lines and
    /// summary): `failed` when any of its updates failed, though WUA's rule 16 combines a mix
    /// into `succeededWithErrors` and an abort into `aborted`; otherwise its result code; `nil`
    /// until it has completed. JSON events and the history keep `result.resultCode`.
    public var shownResultCode: OperationResultCode? {
        guard let result else { return nil }
        // Only a mix or an abort can hide a failure: the others need no walk over the updates.
        guard result.resultCode == .succeededWithErrors || result.resultCode == .aborted else { return result.resultCode }
        let failed = updates.contains { $0.result.resultCode == .failed } || result.updateResults.contains { $0.resultCode == .failed }
        return failed ? .failed : result.resultCode
    }
}
