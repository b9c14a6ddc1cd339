import EngineDaemon
import EngineWire
import InstallDrivers

/// Asking an engine for the pending snapshot of its root as it is now: a new one computed and
/// waited for (a few hundred milliseconds), or after a refresh job when asked for one. While
/// one of the engine's package jobs runs, the latest is the answer, said to be `computing`.
enum PendingQuestion {
    /// The snapshot `client`'s engine has, and whether a newer one is coming.
    /// - Parameter refresh: queue a refresh job first and wait for the snapshot after it.
    /// - Throws: `DaemonError`: the link failed, the engine refused (one that keeps no
    ///   snapshot, a watcher asking for a refresh) or stopped answering, or its snapshot could not
    ///   be read (`unexpectedMessage`).
    static func ask(_ client: EngineClient, refresh: Bool) throws(DaemonError) -> (snapshot: PendingSnapshot, computing: Bool) {
        if refresh { try client.request(.refresh, timeout: DaemonRequest.replyTimeout) }
        let state = try ask(client, request: PendingRequest(recompute: !refresh, wait: true))
        guard let members = state.snapshot?.objectValue else {
            throw .unexpectedMessage("the engine has no pending snapshot yet: it computes one when its running package job ends")
        }
        do {
            return (try PendingSnapshotCoding.decode(WireObject(members, context: "pending.snapshot")), state.computing)
        } catch {
            throw .unexpectedMessage(error.description)
        }
    }

    private static func ask(_ client: EngineClient, request: PendingRequest) throws(DaemonError) -> PendingState {
        let reply = try client.request(.pending(request), timeout: DaemonRequest.replyTimeout)
        do {
            return try PendingState(reply: reply)
        } catch {
            throw .unexpectedMessage(error.description)
        }
    }
}
