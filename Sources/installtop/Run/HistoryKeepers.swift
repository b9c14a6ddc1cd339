import InstallDrivers
import InstallEngine
import InstallHistory

/// The keepers of the package jobs an engine plans from manifests and submissions (`installtop
/// run`, `serve`; rule 33): each keeps the versions its job replaces into the history's undo
/// folder, as `installtop apt …` and `installtop dnf …` do, and shares its run with the
/// recorder through the job's run slot (`RunnableJob.runSlot`, or `register` before the job is
/// queued). With `--no-history` there are none. Kept versions are pruned as each apt keeper is
/// made, before its job keeps more, and after a dnf job kept its own.
struct HistoryKeepers: Sendable {
    let history: HistoryOptions

    /// The keeper of apt job `job`; `nil` when the history is off or cannot be opened.
    func keeper(for job: PackageJob) -> (any APTVersionKeeping)? {
        let keeper = HistoryVersionKeeper.open(history, jobName: APTJobKind.summary(of: job.request), operation: job.request.operation)
        keeper?.prune()
        return keeper
    }

    /// The keeper of dnf job `job`; `nil` when the history is off. It opens the history, and
    /// prunes, only once it has kept something.
    func keeper(for job: DNFJob) -> (any DNFVersionKeeping)? {
        HistoryDNFKeeper.open(history, jobName: job.request.summary, operation: job.request.operation)
    }

    /// The run slot of `driver`'s keeper, when it has one of these.
    static func runSlot(of driver: (any JobDriver)?) -> JobRunSlot? {
        if let dnf = driver as? DNFDriver { return (dnf.versionKeeper as? HistoryDNFKeeper)?.runSlot }
        return ((driver as? APTDriver)?.versionKeeper as? HistoryVersionKeeper)?.runSlot
    }
}
