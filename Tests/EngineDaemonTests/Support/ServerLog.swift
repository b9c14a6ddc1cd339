import Synchronization

/// Collects what an `EngineServer` logs (`ServerOptions.log`).
final class ServerLog: Sendable {
    private let lines = Mutex<[String]>([])

    var handler: @Sendable (String) -> Void {
        { [self] line in lines.withLock { $0.append(line) } }
    }

    var all: [String] { lines.withLock { $0 } }

    func contains(_ text: String) -> Bool { all.contains { $0.contains(text) } }
}
