import InstallEngine
import TerminalUI
/// The board's refresh of hosts' apt lists (`P`, `RefreshBatch`): the selected host's, or the
/// marked hosts' a few at a time.
extension MonitorState {
    /// `P`: refreshes the marked hosts' lists, at most `rolloutParallel` at once in board order,
    /// or the selected host's when none is marked. Each refresh is a job of its host like any
    /// other; the host's pending snapshot follows it. Stale hosts are left out and said so.
    mutating func refreshHosts() -> [MonitorEffect] {
        guard let board else {
            say("P refreshes a host's lists on the board (installtop attach --hosts)")
            return []
        }
        guard !board.marked.isEmpty else {
            // One host at a time, by hand: each P is sent at once, whatever else refreshes.
            guard let host = selectedHost else {
                say("Select a host first")
                return []
            }
            if refusesStale(host: host) { return [] }
            say("Refreshing apt's lists on \(glyphs.sanitizer.sanitize(host))\(glyphs.box.ellipsis)")
            return [.refreshOnHost(host: host)]
        }
        if let batch = refreshBatch, !batch.isOver {
            say("A refresh of the marked hosts runs: \(batch.finished) of \(batch.total) done, \(batch.sent.count) refreshing")
            return []
        }
        let (hosts, stale) = reachable(markedHostNames)
        guard !hosts.isEmpty else {
            say("Nothing reaches \(stale.joined(separator: ", ")) now: nothing was sent")
            return []
        }
        refreshBatch = RefreshBatch(hosts: hosts, parallel: rolloutParallel)
        say("Refreshing apt's lists on \(hosts.count) \(hosts.count == 1 ? "host" : "hosts"), \(min(rolloutParallel, hosts.count)) at a time"
            + (stale.isEmpty ? "" : "; left out, unreachable or silent: \(stale.joined(separator: ", "))"))
        return advanceRefresh()
    }

    /// Brings the refresh up to date: a host whose refresh job ended (or went from its queue),
    /// or whose link was lost, frees its place; then the next hosts are sent while fewer than
    /// `parallel` refresh (a host gone stale meanwhile is skipped). Called after every event.
    mutating func advanceRefresh() -> [MonitorEffect] {
        guard var batch = refreshBatch else { return [] }
        for (host, hostJob) in batch.sent {
            let succeeded: Bool
            if staleAge(ofHost: host) != nil {
                succeeded = false
            } else if let hostJob, let ended = refreshEnded(host: host, hostJob: hostJob) {
                succeeded = ended
            } else {
                continue
            }
            batch.sent[host] = nil
            batch.finished += 1
            if !succeeded { batch.notRefreshed.append(host) }
        }
        var effects: [MonitorEffect] = []
        while batch.sent.count < batch.parallel, !batch.waiting.isEmpty {
            let host = batch.waiting.removeFirst()
            guard staleAge(ofHost: host) == nil else {
                batch.finished += 1
                batch.notRefreshed.append(host)
                continue
            }
            batch.sent[host] = .some(nil)
            effects.append(.refreshOnHost(host: host))
        }
        if batch.isOver {
            refreshBatch = nil
            let refreshed = batch.total - batch.notRefreshed.count
            say(batch.notRefreshed.isEmpty ? "Lists refreshed on \(batch.total) \(batch.total == 1 ? "host" : "hosts")"
                : "Lists refreshed on \(refreshed) of \(batch.total) hosts; not on \(batch.notRefreshed.joined(separator: ", ")) (their rows say why)")
        } else {
            refreshBatch = batch
        }
        return effects
    }

    /// `host`'s engine queued its refresh as its job `job` (its own number): the host's place
    /// is freed when that job ends.
    mutating func refreshQueued(host: String, job: Int) {
        guard refreshBatch?.sent[host] != nil else { return }
        refreshBatch?.sent[host] = .some(job)
    }

    /// Whether `host`'s refresh job `hostJob` (its engine's number) ended, and if so whether it
    /// succeeded: `nil` while it runs, or before the board has seen it; `false` once it is gone
    /// from a queue that is not being shown afresh (cleaned up elsewhere, its end unseen).
    private func refreshEnded(host: String, hostJob: Int) -> Bool? {
        guard let job = board?.jobsByHost[host]?.first(where: { board?.origins[$0]?.job == hostJob }) else { return nil }
        guard let state = queue.job(job) else { return board?.hostsAwaitingSnapshot.contains(host) == true ? nil : false }
        return state.phase == .completed ? state.shownResultCode?.isSuccess == true : nil
    }

    /// `host`'s engine refused the refresh (or it could not be sent): said, and its place freed.
    mutating func refreshRefused(host: String, reason: String) {
        say("\(host): \(reason)")
        guard refreshBatch?.sent[host] != nil else { return }
        refreshBatch?.sent[host] = nil
        refreshBatch?.finished += 1
        refreshBatch?.notRefreshed.append(host)
    }

    /// The header's words while marked hosts refresh: `refreshing lists 12/200 · 10 at a time`.
    public var refreshHeaderParts: [String] {
        guard let batch = refreshBatch else { return [] }
        return ["refreshing lists \(batch.finished)/\(batch.total) · \(batch.parallel) at a time"]
    }
}
