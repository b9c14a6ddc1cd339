/// One client as the I/O thread sees it: its socket, who it is, the unfinished command line,
/// and the bytes being written.
struct ClientConnection {
    let id: Int
    let descriptor: Int32
    let peer: PeerCredentials
    /// A member of the watch group, not the engine's uid: it reads, and may not act.
    let watchesOnly: Bool
    var reader: LineReader
    /// Taken from the outbox, being written from `sentCount` on.
    var sending: [UInt8] = []
    var sentCount = 0
    /// The client shut down its sending side: nothing more to read. Unless it subscribed, it
    /// is closed once every reply it is owed has been written.
    var inputClosed = false
    /// It subscribed to events (it stays connected after its input closes, until it closes).
    var subscribed = false
    /// More waits in its outbox, to be taken once `sending` is written: poll for POLLOUT so
    /// the loop comes back for it (no wake-up may be on its way).
    var outboxWaiting = false
    /// The socket took bytes since the I/O loop last checked whether it reads (`ClientOutbox.stalled`).
    var readSinceCheck = false
    /// The part of its snapshot still to send, while it is being sent.
    var snapshot: SnapshotCursor?

    init(id: Int, descriptor: Int32, peer: PeerCredentials, watchesOnly: Bool = false, maximumLineLength: Int) {
        self.id = id
        self.descriptor = descriptor
        self.peer = peer
        self.watchesOnly = watchesOnly
        reader = LineReader(maximumLength: maximumLineLength)
    }

    /// For log lines.
    var name: String { "client \(id) (pid \(peer.pid)\(watchesOnly ? ", uid \(peer.uid), watching" : ""))" }
}
