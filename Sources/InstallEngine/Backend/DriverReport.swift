/// One thing a driver said about an update of its job, by the update's index in the plan.
/// A report about an index outside the plan, a second start or a second verdict is a protocol
/// error: counted and ignored, never fatal (rule 22).
public enum DriverReport: Sendable, Hashable {
    /// The driver started update `index`; it becomes the current update (rule 21).
    case updateStarted(index: Int)
    /// The driver adds `update` after the job's last update and starts it (rule 28: an
    /// observed job without a plan, as dpkg names a package it does not have). Its index is the
    /// job's update count before it. Accepted only by a job whose driver `addsUpdates`; a
    /// protocol error otherwise.
    case updateAdded(Update)
    /// Update `index` reported progress, a message, an error, a reboot or output, as a child
    /// does on its channel. Reports about an update not in progress are ignored.
    case update(index: Int, UpdateReport)
    /// Update `index` ended this way.
    case updateFinished(index: Int, DriverVerdict)
    /// The driver's own figure for the whole job (apt's overall percent), 0–100. The job's
    /// percent is the higher of it and rule 6's, so it never goes down and reaches 100 when
    /// every update has finished.
    case jobProgress(percent: Double)
    /// The driver's status text for the whole job, shown where no update is the one to say it
    /// on (apt's downloads, a repair after the last package); `nil` clears it. It stays until
    /// the driver changes it, also once the job has completed (a repair's outcome).
    case jobMessage(String?)
}
