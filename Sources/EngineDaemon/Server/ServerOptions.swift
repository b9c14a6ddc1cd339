import EngineWire
import InstallEngine
import InstallHistory

/// How an `EngineServer` listens and what it tolerates from clients.
public struct ServerOptions: Sendable {
    /// The socket's path; its directory must be writable by this user only.
    public var socketPath: String
    /// How far behind a client may fall: past a quarter of this many bytes of live events
    /// waiting for it, its progress is coalesced and its output lines summarised (a line saying
    /// how many it did not get), so what waits for it stays bounded; every state change still
    /// reaches it in order. A client that falls behind is never dropped for it.
    public var backlogLimit: Int
    /// A subscriber that reads nothing at all for this long while events wait for it is closed
    /// (logged as `closed: it read nothing for N s …`): a stopped or hung peer. One that reads,
    /// however slowly, stays.
    public var idleReaderTimeout: Duration
    /// Longer command lines are skipped and answered with `lineTooLong`.
    public var maximumLineLength: Int
    /// Where the engine says what happens (connections, refusals, drops): one line each.
    public var log: @Sendable (String) -> Void
    /// The kinds submitted jobs may be of besides lists of commands (apt, Ansible …); the member
    /// of a kind not among them is not read, and such a job is refused for having no updates.
    public var kinds: JobKinds
    /// Members of this group may attach and read (subscribe, history, durations) but not act;
    /// the socket is then mode 0660 and of this group. `nil`: only the engine's uid connects.
    public var watchGroup: WatchGroup?
    /// Plans the undo of a job run and queues it awaiting confirmation, returning its job
    /// number or the refusal (`notUndoable`, with what to do); called off the I/O thread. `nil`:
    /// this engine runs no undo, and `undo` is refused saying so.
    public var undo: (@Sendable (_ run: Int) -> Result<Int, WireError>)?
    /// Called with each submitted job's name and driver just before it is queued, on the
    /// thread that planned it (an apt job's keeper shares its history run with the recorder,
    /// found by the job's name); nothing by default.
    public var beforeQueueing: (@Sendable (_ name: String, _ driver: (any JobDriver)?) -> Void)?
    /// Where observed jobs come from (dpkg's hooks and log, `EngineHost.observedSources`),
    /// started with the server and stopped with it; none by default: relay messages are dropped.
    public var observed: ObservedSources
    /// What `about` answers: this process, its history and its apt root (none named by
    /// default: a history-less engine of this system's apt).
    public var identity: EngineIdentity
    /// The pending snapshot of the engine's root, which `pending` answers and `refresh`
    /// refreshes; `nil`: this engine keeps none, and both are refused saying so.
    public var pending: (any PendingSnapshotSource)?
    /// The commit-confirmed runs of the engine's history, pushed to clients (`armed` events)
    /// and confirmed by `confirmRun`; `nil`: this engine keeps none, and `confirmRun` is refused.
    public var armed: (any ArmedRunsSource)?
    /// What dpkg has half-way in a database (`/var/lib/dpkg`), by package with dpkg's words,
    /// for the undoability `runs` answers (`HistoryStore.jobRuns`); none by default.
    public var halfWay: @Sendable (_ administrativeDirectory: String) -> [String: HalfWayPackage]

    public init(
        socketPath: String, backlogLimit: Int = 8 << 20, idleReaderTimeout: Duration = .seconds(120), maximumLineLength: Int = 8 << 20,
        log: @escaping @Sendable (String) -> Void = { _ in }, kinds: JobKinds = JobKinds(), observed: ObservedSources = ObservedSources(),
        watchGroup: WatchGroup? = nil, undo: (@Sendable (_ run: Int) -> Result<Int, WireError>)? = nil,
        beforeQueueing: (@Sendable (_ name: String, _ driver: (any JobDriver)?) -> Void)? = nil,
        pending: (any PendingSnapshotSource)? = nil,
        armed: (any ArmedRunsSource)? = nil,
        identity: EngineIdentity = EngineIdentity(history: nil, aptConfig: nil),
        halfWay: @escaping @Sendable (_ administrativeDirectory: String) -> [String: HalfWayPackage] = { _ in [:] }
    ) {
        self.halfWay = halfWay
        self.pending = pending
        self.armed = armed
        self.identity = identity
        self.undo = undo
        self.beforeQueueing = beforeQueueing
        self.watchGroup = watchGroup
        self.observed = observed
        self.socketPath = socketPath
        self.backlogLimit = backlogLimit
        self.idleReaderTimeout = idleReaderTimeout
        self.maximumLineLength = maximumLineLength
        self.log = log
        self.kinds = kinds
    }
}
