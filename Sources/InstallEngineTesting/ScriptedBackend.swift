import Dispatch
import InstallEngine
import Synchronization

/// A deterministic backend for tests and benchmarks: each update follows the `UpdateScript`
/// registered for its id (or the default script), and the test decides when held updates end.
public final class ScriptedBackend: InstallBackend {
    private struct State {
        var scripts: [String: UpdateScript]
        var running: [String: ScriptedRunningUpdate] = [:]
        var started: [String] = []
        /// Releases asked for before the update's first start, applied when it starts.
        var earlyReleases: Set<String> = []
        var startWaiters: [(id: String, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>
    private let defaultScript: UpdateScript
    /// Where every script of this backend plays, one at a time, as the process backend's one
    /// poller thread reads every child. A Dispatch queue rather than a task: tests elsewhere
    /// in the run that block in a synchronous call (an apt-get of 40 packages) can fill Swift's
    /// cooperative pool, and a script that never plays looks like an engine that lost its
    /// reports. One queue rather than one per update: a hundred threads reporting at once
    /// spend their time contending for the engine's locks (engine-events fell from millions
    /// of events a second to tens of thousands).
    private let player = DispatchQueue(label: "installtop.scripted-backend")

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

    /// Ends the held update `updateID` with its script's outcome. If it has not started yet,
    /// it ends as soon as it does (a test that saw the job move on to it need not wait for its
    /// start); if it has already ended, this does nothing.
    public func release(_ updateID: String) {
        let running = state.withLock { state -> ScriptedRunningUpdate? in
            if let running = state.running[updateID] { return running }
            state.earlyReleases.insert(updateID)
            return nil
        }
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
        let script = state.withLock { $0.scripts[id] } ?? defaultScript
        let running = ScriptedRunningUpdate(script: script, reporter: reporter, player: player)
        // Known as started and as running in one step: a test that sees it started can release it.
        let (waiters, releasedEarly) = state.withLock { state -> ([CheckedContinuation<Void, Never>], Bool) in
            state.started.append(id)
            state.running[id] = running
            let ready = state.startWaiters.filter { $0.id == id }.map(\.continuation)
            state.startWaiters.removeAll { $0.id == id }
            return (ready, state.earlyReleases.remove(id) != nil)
        }
        if releasedEarly { running.release() }
        running.begin()
        for waiter in waiters { waiter.resume() }
        return running
    }
}
