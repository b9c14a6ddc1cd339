import Dispatch
import EngineWire
import InstallEngine
import Synchronization

extension ServerLoop {
    /// `pending`: the latest snapshot of the engine's root at once, or, with `wait`, once no
    /// newer one is being computed (the reply owed meanwhile).
    func pending(_ request: PendingRequest, requestID: Int?, from id: Int) throws(WireError) -> WireReply? {
        let source = try pendingSource()
        if request.recompute { source.recompute() }
        guard request.wait else { return WireReply(command: "pending", requestID: requestID, fields: source.current().fields) }
        let server = self.server
        server.oweReply(to: id)
        source.whenSettled { state in
            server.send(WireReply(command: "pending", requestID: requestID, fields: state.fields).line, to: id, owed: true)
        }
        return nil
    }

    /// `refresh`: queues the refresh job; its planning asks apt for the root (a process), so
    /// off the I/O thread.
    func refresh(requestID: Int?, from id: Int, who: String) throws(WireError) -> WireReply? {
        let source = try pendingSource()
        guard server.shared.withLock({ $0.acceptsSubmissions }) else {
            throw WireError(.shuttingDown, "the engine is shutting down and takes no new jobs")
        }
        return replyOffThread(to: id) { server in
            switch source.refresh() {
            case .success(let job):
                server.options.log("\(who) asked for a refresh of apt's lists: job \(job)")
                // Its `job.queued` goes out before the reply, as for a submission.
                server.queue.waitUntilDelivered()
                return WireReply(command: "refresh", requestID: requestID, fields: ["job": .integer(job)])
            case .failure(let error):
                return WireReply(command: "refresh", requestID: requestID, error: error)
            }
        }
    }

    private func pendingSource() throws(WireError) -> any PendingSnapshotSource {
        guard let source = server.options.pending else {
            throw WireError(.unknownCommand, "this engine keeps no pending snapshot (only `installtop serve` does)")
        }
        return source
    }
}
