import EngineWire
import InstallEngine
import InstallDrivers
import Monitor

/// The job a rollout submits to each host (the board's `U` and `D`, `installtop apt upgrade
/// --hosts`, `apt full-upgrade --hosts`): an `apt upgrade` (`full`: `apt full-upgrade`) of the
/// host's own system, without a yes, so that its engine plans it and holds it for the
/// operator's answer.
enum RolloutJob {
    static func submission(full: Bool) -> JobSubmission {
        JobSubmission(name: Rollout.jobName(full: full), operation: .install, updates: [], stopOnFailure: false,
                      kind: JobKindSpec(kind: APTJobKind(keepers: nil), spec: PackageJob(request: full ? .fullUpgrade : .upgrade)))
    }
}
