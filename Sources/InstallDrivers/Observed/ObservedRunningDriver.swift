import InstallEngine

/// An observed transaction as a running driver. It cannot be stopped or killed (rule 29: the
/// queue refuses the abort before it gets here, and `abortAll` passes observed jobs by).
struct ObservedRunningDriver: RunningDriver {
    let transaction: ObservedTransaction

    func stopAtSafePoint() {}

    func kill() {}

    var outcome: UpdateRunOutcome {
        get async { await transaction.outcome }
    }
}
