/// A handle on a running driver. Its `outcome` comes once the driver's processes are gone and
/// every report has been made.
public protocol RunningDriver: RunningOutcome {
    /// Asks the driver to stop at its next safe point (rule 24): the update it is on finishes
    /// with its real result and no further update starts. There is no grace timer: a safe
    /// point may be minutes away. Returns at once; idempotent.
    func stopAtSafePoint()
    /// Stops the driver now: every process it started, wherever their session (rule 25). A
    /// driver that must repair what it cut (apt: `dpkg --configure -a`) does so before its
    /// `outcome` returns, and says what it left in the cut update's verdict. Returns at once.
    func kill()
}
