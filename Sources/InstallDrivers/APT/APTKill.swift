import InstallEngine

/// What apt's end knows of a forced stop before the repair (`APTEndWork.repairAfterKill`): the
/// packages the kill cut, the finished one whose verdict was still held when nothing was cut,
/// the package the repair is shown on, what was killed, and what ended apt when installtop did
/// not (rule 25a).
struct APTKill: Sendable {
    /// The plan's indices of the packages apt was on, the one dpkg was on first.
    var cut: [Int]
    /// The last package apt finished, its verdict held back, when nothing was cut.
    var finishedBeforeKill: (index: Int, verdict: DriverVerdict)?
    /// The package whose lines carry the repair: the first cut, else the one finished before
    /// the kill, else the last apt finished; `nil` when apt had finished none (the job's alone).
    var target: Int?
    /// What the kill ended.
    var killed: [ProcessTree.Member]
    /// What ended apt when it was not installtop's forced stop.
    var unexpected: APTUnexpectedEnd?
}
