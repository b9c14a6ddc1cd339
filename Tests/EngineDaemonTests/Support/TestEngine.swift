import EngineDaemon
import EngineWire
import InstallEngine
import InstallHistory
import InstallEngineTesting

/// A `JobQueue` on a `ScriptedBackend`, served by an `EngineServer` on a socket in a fresh
/// 0700 directory. `stop()` it at the end of the test.
final class TestEngine: Sendable {
    let directory: SocketDirectory
    let backend: ScriptedBackend
    let queue: JobQueue
    let server: EngineServer
    let log = ServerLog()

    static let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-daemon-test-marker")

    init(
        backend: ScriptedBackend = ScriptedBackend(), concurrency: Int = 1,
        history: HistorySource = .off("history is off in this test"),
        backlogLimit: Int = 8 << 20, idleReaderTimeout: Duration = .seconds(120), maximumLineLength: Int = 8 << 20,
        directory: SocketDirectory = SocketDirectory(),
        kinds: JobKinds = JobKinds(),
        undo: (@Sendable (_ run: Int) -> Result<Int, WireError>)? = nil,
        identity: EngineIdentity = EngineIdentity(history: nil, aptConfig: nil)
    ) throws {
        self.directory = directory
        self.backend = backend
        queue = JobQueue(backend: backend, concurrency: concurrency, configuration: Self.configuration)
        server = try EngineServer(
            queue: queue, history: history,
            options: ServerOptions(
                socketPath: directory.socket, backlogLimit: backlogLimit, idleReaderTimeout: idleReaderTimeout,
                maximumLineLength: maximumLineLength,
                log: log.handler, kinds: kinds, undo: undo, identity: identity))
    }

    var socketPath: String { directory.socket }

    func connect() throws -> EngineClient { try EngineClient(path: socketPath) }

    /// A connection reading on its own thread, subscribed.
    func subscriber() throws -> MessageCollector {
        let collector = MessageCollector(try connect())
        try collector.client.send(.subscribe)
        return collector
    }

    func stop() { server.stop() }
}

/// An update the scripted backend can run (it needs an install command to pass validation).
func update(_ id: String) -> Update {
    Update(id: id, title: "Update \(id)", installCommand: .argv(["install", id]), uninstallCommand: .argv(["uninstall", id]))
}

func job(_ name: String, _ ids: [String], stopOnFailure: Bool = false) -> JobSubmission {
    JobSubmission(name: name, operation: .install, updates: ids.map(update), stopOnFailure: stopOnFailure)
}
