/// Where an engine's `pending` and `refresh` commands are answered from: the keeper of the
/// pending snapshot of the engine's apt root (Documentation/MANY-HOSTS.md "Fleet patching").
public protocol PendingSnapshotSource: Sendable {
    /// The latest snapshot and whether a newer one is being computed or waits.
    func current() -> PendingState
    /// Asks for a new snapshot: computed at once, or once the engine's running package jobs
    /// have ended; requests that come while one waits are one request.
    func recompute()
    /// Calls `body` once no snapshot is being computed or about to be and no refresh job is
    /// queued or running (at once when so), with the state then, on whatever thread got there.
    /// A snapshot owed after another running package job is not waited for: the state then says
    /// `computing`.
    func whenSettled(_ body: @escaping @Sendable (PendingState) -> Void)
    /// Queues a refresh of apt's lists (`apt-get update` in the engine's root), a job like any
    /// other, after which a snapshot is computed; returns the job's number, or why it was not
    /// queued.
    func refresh() -> Result<Int, WireError>
    /// Calls `body` with the state at once, then each time it changes (a computation owed or
    /// begun, a new snapshot), in order, one call at a time, until the source stops: what the engine pushes
    /// to its clients (`pending` events), so that nothing has to ask again. `body` must be quick.
    func observe(_ body: @escaping @Sendable (PendingState) -> Void)
}
