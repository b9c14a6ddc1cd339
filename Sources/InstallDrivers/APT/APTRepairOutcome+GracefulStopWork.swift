extension APTRepairOutcome {
    /// What `dpkg --configure --pending` found after a graceful stop.
    enum GracefulStopWork: Sendable, Hashable {
        /// It configured packages or ran triggers the stop had left pending.
        case finishedPending
        /// It had nothing to do: apt had finished everything it began.
        case nothingPending
    }
}
