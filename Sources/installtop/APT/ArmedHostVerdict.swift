/// What became of one host's armed run once its job ended (`ArmedHostFollower.verdict`): the
/// words are the ones `installtop apt upgrade --hosts --confirm` prints for the host; a patch
/// night tells a host that reverts from one that failed by them.
enum ArmedHostVerdict: Sendable {
    /// Kept after a fresh ssh login worked and no check regressed.
    case kept
    /// Armed and left to its window (nobody asked to keep it by login): the job's own outcome.
    case leftArmed(APTHostsUpgrade.Outcome)
    /// Armed, but the job itself did not succeed: left to its window, which undoes it.
    case jobFailed(APTHostsUpgrade.Outcome)
    /// Confirmed before (by someone else, or by a patch night's process that stopped before it
    /// could say so): it stays. `installtop apt upgrade` counts it as not armed, as it always has.
    case confirmedAlready(String)
    /// Not armed (none was said in time, or it could not be armed): nothing will undo it.
    case notArmed(String)
    /// Reverted at once (a regressed check with `revertOnRegression`), or not kept, so that its
    /// host undoes it at the deadline.
    case reverts(String)
    /// Rebooted by a patch night (`ArmedHostFollower.beforeKeeping`) and not back in time: its
    /// engine undoes the run at the deadline if the host comes back.
    case notBack(String)

    /// The host's outcome for a rollout from the command line.
    var outcome: APTHostsUpgrade.Outcome {
        switch self {
        case .kept: .succeeded
        case .leftArmed(let outcome), .jobFailed(let outcome): outcome
        case .confirmedAlready(let reason), .notArmed(let reason), .reverts(let reason), .notBack(let reason): .failed(reason)
        }
    }
}
