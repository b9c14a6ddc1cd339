import InstallEngine

/// A snapshot being sent to a new subscriber, a chunk at a time: the client starts reading
/// while the rest is encoded, and other clients are served in between.
struct SnapshotCursor {
    /// The queue's replay, from `QueueModel.replayEvents()`.
    let events: [EngineEvent]
    /// The first event not yet encoded.
    var next = 0

    /// Events encoded per turn of the I/O loop (about 150 KB).
    static let chunkSize = 1_000
}
