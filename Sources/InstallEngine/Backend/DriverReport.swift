/// One thing a driver said about an update of its job, by the update's index in the plan.
/// A report about an index outside the plan, a second start or a second verdict is a protocol
/// error: counted and ignored, never fatal (rule 22).
public enum DriverReport: Sendable, Hashable {
    /// The driver started update `index`; it becomes the current update (rule 21).
    case updateStarted(index: Int)
    /// The driver adds `update` after the job's last update and starts it (rule 28: an
    /// observed job without a plan, as dpkg names a package it does not have). Its index is the
    /// job's update count before it. Accepted only by a job whose driver `addsUpdates`; a
    /// protocol error otherwise. Boxed (`indirect`): every other report stays small to copy.
    indirect case updateAdded(Update)
    /// Update `index` reported progress, a message, an error, a reboot or output, as a child
    /// does on its channel. Reports about an update not in progress are ignored.
    case update(index: Int, UpdateReport)
    /// Update `index` ended this way.
    case updateFinished(index: Int, DriverVerdict)
    /// The driver ended the job before some of its updates: every update that has not started
    /// by now ends with this verdict (normally `aborted` with `callCancelled`: not started).
    /// Updates in progress are left to the driver's end (rule 23).
    case unstartedUpdatesFinished(DriverVerdict)
    /// The driver's own figure for the whole job (apt's overall percent), 0–100. The job's
    /// percent is the higher of it and rule 6's, so it never goes down and reaches 100 when
    /// every update has finished.
    case jobProgress(percent: Double)
    /// The driver's status text for the whole job, shown where no update is the one to say it
    /// on (apt's downloads, a repair after the last package); `nil` clears it. It stays until
    /// the driver changes it, also once the job has completed (a repair's outcome).
    case jobMessage(String?)
    /// A line of the driver's tool it could not read (apt's Status-Fd lines it does not know,
    /// or that name a package outside the plan): ignored, and counted with the job's ignored
    /// channel lines, which its result shows.
    case ignoredLine
    /// Lines of the driver's tool that never reached the driver (an observed job's relay could
    /// not deliver them: no engine listening at that moment, or its socket full), counted with
    /// the job's result (`InstallationResult.droppedLines`); nothing else changes.
    case linesDropped(Int)
    /// A line of the driver protocol the driver wrote that could not be read (not JSON, not a
    /// message of this version) or that named nothing of a plan, counted on this job (the one
    /// the driver spoke of last): ignored, and counted with the job's protocol errors (rule 22),
    /// which its result shows.
    case protocolError
    /// The driver's tool was stopped by force, not by installtop (apt-get or dpkg killed by a
    /// signal installtop did not send: `kill -9`, the OOM killer; rule 25a). The job ends as
    /// after a forced abort (rule 25): aborted, each update it never started `aborted` with
    /// `reason` (what stopped it) after "not started: ". Nothing is signalled: the tool is gone.
    /// Ignored once the job has completed or an abort was forced.
    case stoppedByForce(reason: String)
    /// The driver's tool was told to stop, before it changed anything, by the driver's own side
    /// after the job began (apt's hook answered `stop` for an armed job that lacks a version its
    /// revert needs). The job is aborted from here as when that stop comes before its start
    /// (`JobDriver.stopRequestedAlready`): no abort announced, and an operator's abort after it
    /// is their first. Ignored once an abort was requested or the job completed.
    case stoppedBeforeChanges
}
