import InstallEngine

/// What apt's end knows of a graceful stop before finishing what it left to dpkg
/// (`APTEndWork.repairAfterGracefulStop`): the last package apt finished with its verdict held
/// until now, the package the steps are shown on, and how apt-get ended when that is worth
/// saying (on the stop's SIGINT itself).
struct APTGracefulEnd: Sendable {
    /// The last package apt finished, its verdict held back; `nil` when it finished none.
    var last: (index: Int, verdict: DriverVerdict)?
    /// `last`, else the package dpkg was on (apt left it unpacked); `nil`: the job's alone.
    var target: Int?
    /// `APTTranslator.endedOnTheStop` when apt-get ended on the stop's SIGINT.
    var aptEnd: String?
}
