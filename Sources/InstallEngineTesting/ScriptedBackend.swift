import InstallEngine
import Synchronization

/// A deterministic backend for tests and benchmarks: each update follows the `UpdateScript`
/// registered for its id (or the default script), and the test decides when held updates end.
public final class ScriptedBackend: InstallBackend {
    private struct State {
        var scripts: [String: UpdateScript]
        var running: [String: ScriptedRunningUpdate] = [:]
        var started: [String] = []
        var startWaiters: [(id: String, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>
    private let defaultScript: UpdateScript

    /// - Parameters:
    ///   - scripts: the script of each update id.
    ///   - defaultScript: the script of every other update.
    public init(scripts: [String: UpdateScript] = [:], defaultScript: UpdateScript = .succeed) {
        state = Mutex(State(scripts: scripts))
        self.defaultScript = defaultScript
    }

    /// Sets the script of `updateID` for its next start.
    public func setScript(_ script: UpdateScript, for updateID: String) {
        state.withLock { $0.scripts[updateID] = script }
    }

    /// The ids of the updates started so far, in start order (an id repeats if it ran again).
    public var startedUpdateIDs: [String] { state.withLock { $0.started } }

    /// Ends the held update `updateID` with its script's outcome. No-op if it is not running.
    public func release(_ updateID: String) {
        let running = state.withLock { $0.running[updateID] }
        running?.release()
    }

    /// Waits until an update with this id has started (returns at once if it already has).
    public func waitUntilStarted(_ updateID: String) async {
        await withCheckedContinuation { continuation in
            let already = state.withLock { state -> Bool in
                if state.started.contains(updateID) { return true }
                state.startWaiters.append((updateID, continuation))
                return false
            }
            if already { continuation.resume() }
        }
    }

    public func start(_ request: UpdateRunRequest, reporter: any UpdateReporter) -> any RunningUpdate {
        let id = request.update.id
        let (script, waiters) = state.withLock { state -> (UpdateScript, [CheckedContinuation<Void, Never>]) in
            state.started.append(id)
            let ready = state.startWaiters.filter { $0.id == id }.map(\.continuation)
            state.startWaiters.removeAll { $0.id == id }
            return (state.scripts[id] ?? defaultScript, ready)
        }
        let running = ScriptedRunningUpdate(script: script, reporter: reporter)
        state.withLock { $0.running[id] = running }
        running.begin()
        for waiter in waiters { waiter.resume() }
        return running
    }
}
