import InstallEngine

/// What a forced stop (rule 25, or a kill from outside, rule 25a) leaves for apt's end to settle (`APTRunState.aptEnded`): the
/// packages the kill cut, the finished package whose verdict apt had not confirmed when the
/// kill landed past every package (in trigger processing), dpkg's state right after the kill
/// (before the repair), and the repair's outcome. Results then keep the two states apart:
/// what the kill left, and what the repair made of it.
struct APTForcedStop: Sendable {
    /// The plan's indices of the packages apt was on when it was killed.
    var cut: [Int]
    /// The last package apt finished, its verdict held back, when nothing was cut: the repair
    /// is shown on it.
    var finishedBeforeKill: (index: Int, verdict: DriverVerdict)?
    /// Every package of dpkg's database right after the kill, by name (`APTPackageState.query`).
    var statesAfterKill: [String: APTPackageState]
    var repair: APTRepairOutcome
    /// What cut the transaction, as results say it (`cut by a forced abort: …`): `abort`, or a
    /// kill from outside (rule 25a) with what ended it.
    var cutBy: String = abort

    /// installtop's own forced stop, as results say it.
    static let abort = "a forced abort"
}
