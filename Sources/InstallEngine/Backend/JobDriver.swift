/// Runs every update of a job through one installer process that reports on each of them
/// (apt, Ansible, any program speaking the driver protocol; rules 21–27).
///
/// The engine still owns the WUA model: it fixes the plan before the driver starts (rule 22),
/// turns the driver's reports into one lifecycle per update, and gives every update the
/// driver did not finish a result when it ends (rule 23).
public protocol JobDriver: Sendable {
    /// Starts the driver for `request` and returns at once. A driver that cannot be started is
    /// not an error here: the returned handle's `outcome` is `.failedToStart(reason)`.
    ///
    /// The driver calls `reporter` in order, never concurrently, and never after `outcome`
    /// has returned.
    func start(_ request: DriverRunRequest, reporter: any DriverReporter) -> any RunningDriver

    /// Whether it may add updates to its job as it runs (`DriverReport.updateAdded`; rule 28:
    /// an observed job without a plan). False for every driver with a plan (rule 22).
    var addsUpdates: Bool { get }

    /// Whether its process runs before its job starts (apt's transaction after its hook gave
    /// the plan, `installtop apt --yes`): an abort that comes before the job starts then still
    /// starts the driver, and stops it as an abort of a running driver does (rules 24–25),
    /// instead of ending the job without it (rule 13), which would leave the process going on
    /// with no one watching. False for every driver that starts its process in `start`.
    var runsAlready: Bool { get }

    /// Whether its process, running already (`runsAlready`), was asked to stop before its job
    /// began (a signal `installtop apt --yes` took while apt ran and before the run took signals
    /// over): the job is then aborted from its start, so that what the stop left undone is
    /// recorded as aborted however soon the driver ends. False for every other driver.
    var stopRequestedAlready: Bool { get }

    /// What an abort does to its job, in its tool's words (`JobStopNote`), carried on the job's
    /// descriptor to whoever asks before an abort; `nil` says only that the running update
    /// finishes first.
    var stopNote: JobStopNote? { get }

    /// The package tool whose transaction it runs (`apt`, `dnf`), carried on the job's
    /// descriptor: the history records the run as that kind. `nil` for a driver of anything else.
    var packageTool: String? { get }
}

extension JobDriver {
    public var addsUpdates: Bool { false }
    public var runsAlready: Bool { false }
    public var stopRequestedAlready: Bool { false }
    public var stopNote: JobStopNote? { nil }
    public var packageTool: String? { nil }
}
