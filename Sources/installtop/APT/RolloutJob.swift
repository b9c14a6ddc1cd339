import EngineWire
import InstallEngine
import InstallDrivers
import Monitor

/// The job a rollout submits to each host (the board's `U`, `installtop apt upgrade --hosts`):
/// an `apt upgrade` of the host's own system, without a yes, so that its engine plans it and
/// holds it for the operator's answer.
enum RolloutJob {
    static var submission: JobSubmission {
        JobSubmission(name: MonitorState.rolloutJobName, operation: .install, updates: [], stopOnFailure: false,
                      kind: JobKindSpec(kind: APTJobKind(keepers: nil), spec: PackageJob(request: .upgrade)))
    }
}
