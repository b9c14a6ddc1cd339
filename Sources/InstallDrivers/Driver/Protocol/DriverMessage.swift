/// One line a driver wrote, decoded. Every case carries one named payload, so a field can be
/// added in one place.
public enum DriverMessage: Sendable, Hashable {
    /// `hello`: the protocol version and the driver's name; optional, first when sent.
    case hello(DriverHello)
    /// `plan`: a job and its updates, declared before any of them starts (rule 22).
    case plan(DriverPlan)
    /// `started`: an update of a declared job begins.
    case started(DriverUpdateReference)
    /// `progress`: an update's percent and/or status text, and the driver's own figure for the job.
    case progress(DriverProgress)
    /// `output`: one line of output, for an update or for the job as a whole.
    case output(DriverOutput)
    /// `reboot`: the update's system needs a reboot (rule 26: the driver knows, per update).
    case reboot(DriverUpdateReference)
    /// `finished`: an update's result.
    case finished(DriverFinished)
    /// `stopping`: the driver took a stop request and waits for these updates to finish (rule 24).
    case stopping(DriverStopping)
    /// `jobEnded`: nothing more will run in this job; updates not reached are not started, for `reason`.
    case jobEnded(DriverJobEnded)
}
