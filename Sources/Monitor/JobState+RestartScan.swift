import InstallEngine

extension JobState {
    /// True when every update of this job of commands has ended and the job only waits for its
    /// restart scan before it completes (rule 32: tens to hundreds of milliseconds): nothing of
    /// it is left to run or abort, so the monitor does not count it as running and `q` quits
    /// without asking. Jobs run by a driver (apt, a fleet host) or observed are never taken
    /// for done before they complete: their process can still be at work after its last update
    /// (apt's triggers).
    public var onlyAwaitsRestartScan: Bool {
        phase == .running && !descriptor.runByDriver && !descriptor.declaredByDriver && descriptor.observedBy == nil
            && !updates.isEmpty && updates.allSatisfy(\.result.resultCode.isFinal)
    }
}
