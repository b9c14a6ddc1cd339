extension JobState {
    /// The result people read for a completed job (monitor, `status`, the plain lines and
    /// summary): `failed` when any of its updates failed, though WUA's rule 16 combines a mix
    /// into `succeededWithErrors` and an abort into `aborted`; otherwise its result code; `nil`
    /// until it has completed. JSON events and the history keep `result.resultCode`.
    public var shownResultCode: OperationResultCode? {
        guard let result else { return nil }
        let shown = result.shownResultCode
        // The updates' own states too: a failure the result's list does not carry still shows.
        guard shown == .succeededWithErrors || shown == .aborted else { return shown }
        return updates.contains { $0.result.resultCode == .failed } ? .failed : shown
    }
}
