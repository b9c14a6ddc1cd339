import InstallEngine

/// Where observed jobs come from (rule 28: installs that another program runs, shown as they
/// happen): dpkg, through its hooks (installtop-relay's messages) and its lock and log. An
/// engine that serves (`serve`, `hooks watch`) starts every registered source
/// (`ObservedSources`, built next to the job kinds in `EngineHost`); an rpm watcher would be
/// one more source there, and nothing in the daemon names either.
public protocol ObservedSource: Sendable {
    /// What the engine's log says at its start about what the source follows (or why it
    /// follows less than it could): one line.
    var startNote: String { get }

    /// Starts following, submitting each transaction it sees to `queue` as an observed job.
    /// Returns at once; never blocks on a process or the disk.
    func start(on queue: JobQueue) -> any ObservedWatch
}
