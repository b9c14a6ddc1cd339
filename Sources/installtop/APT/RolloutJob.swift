import EngineWire
import InstallEngine
import InstallDrivers
import Monitor

/// The job a rollout submits to each host (the board's `U` and `D`, `installtop apt upgrade
/// --hosts`, `apt full-upgrade --hosts`): an `apt upgrade` (`full`: `apt full-upgrade`) of the
/// host's own system, without a yes, so that its engine plans it and holds it for the
/// operator's answer.
enum RolloutJob {
    /// `confirm` arms it (`PackageJob.confirm`): the host's engine takes its health before and
    /// after, and undoes the run unless it is kept in time.
    static func submission(full: Bool, confirm: ConfirmRequest?) -> JobSubmission {
        JobSubmission(name: Rollout.jobName(full: full), operation: .install, updates: [], stopOnFailure: false,
                      kind: JobKindSpec(kind: APTJobKind(keepers: nil), spec: PackageJob(request: full ? .fullUpgrade : .upgrade, confirm: confirm)))
    }

    /// The board's submission: armed for `confirmSeconds` with the host's own checks (its
    /// `/etc/installtop/confirm.d`) when given.
    static func boardSubmission(full: Bool, confirmSeconds: Double?) -> JobSubmission {
        submission(full: full, confirm: confirmSeconds.map { ConfirmRequest(seconds: $0) })
    }
}
