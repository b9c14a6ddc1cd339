#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import TextBasics
import InstallEngine
import RestartScan

/// The grouped board's fleet view: each host's pending snapshot on its row, the hosts filtered
/// (`F`) and sorted (`o`) by it, and the answers of a host's engine to `h` (`P`'s refresh is
/// `MonitorState+Refresh`).
extension MonitorState {
    // MARK: - Queries

    /// The hosts the board lists, in the order shown: those the filter keeps, sorted, and the
    /// selected host whatever the filter (keys act on it; it is not hidden under them).
    public var shownHosts: [BoardHost] {
        guard let board else { return [] }
        // Every frame lists the rows, several times: the default costs nothing per host.
        if board.hostFilter == .all && board.hostSort == .given { return board.hosts }
        let selected = selectedHost
        let kept = board.hosts.enumerated().filter { $0.element.name == selected || hostMatches($0.element, board.hostFilter) }
        guard board.hostSort != .given else { return kept.map(\.element) }
        return kept.sorted { left, right in
            let (a, b) = (left.element, right.element)
            switch board.hostSort {
            case .given:
                break
            case .name:
                if a.name != b.name { return NaturalOrder.areInIncreasingOrder(a.name, b.name) }
            case .pendingCount:
                let (x, y) = (pendingCount(a.name), pendingCount(b.name))
                if x != y { return x > y }
            case .securityFirst:
                let (x, y) = (securityCount(a.name), securityCount(b.name))
                if x != y { return x > y }
                let (p, q) = (pendingCount(a.name), pendingCount(b.name))
                if p != q { return p > q }
            }
            return left.offset < right.offset
        }.map(\.element)
    }

    /// What a host's row says of its pending snapshot, the most telling first since a narrow
    /// row cuts the end: `1 not fully installed` when dpkg left packages half-way, `12 pending
    /// · 3 security · reboot: 6.1.0-28-amd64`, `up to date`, the
    /// lists' age only when a day old or more (`lists 6 days old`), `failed: <apt's words>`,
    /// and `recomputing` while its engine computes a newer one (with the age of the one shown
    /// once it is a few seconds old); `nil` before one came, or from an engine that keeps none.
    /// The updates pane of the host says it whole (`pendingSummary`).
    public func pendingText(ofHost host: String) -> String? {
        guard let snapshot = board?.pending[host] else { return board?.pendingComputing.contains(host) == true ? "computing what is pending" : nil }
        guard snapshot.problem == nil else { return ([snapshot.summary(now: now)] + recomputingParts(host, snapshot)).joined(separator: " · ") }
        var parts = snapshot.countParts + [snapshot.rebootText].compactMap { $0 }
        if snapshot.listsUpdatedAt.map({ now.timeIntervalSince($0) >= 86_400 }) ?? true { parts.append(snapshot.listsAgeText(now: now)) }
        return (parts + recomputingParts(host, snapshot)).joined(separator: " · ")
    }

    /// The pending snapshot's summary whole (`PendingSnapshot.summary`), for the updates pane
    /// of a host with no job, with how old it is and whether a newer one is coming.
    public func pendingSummary(ofHost host: String) -> String? {
        guard let snapshot = board?.pending[host] else { return nil }
        let age = TimeText.remaining(max(0, now.timeIntervalSince(snapshot.computedAt)))
        let freshness = board?.pendingComputing.contains(host) == true ? "computed \(age) ago; a newer one is being computed" : "computed \(age) ago"
        return snapshot.summary(now: now) + " (\(freshness))"
    }

    /// A line per package of the host's snapshot for the updates pane of a host with no job, as
    /// `installtop pending` lists them: each pending one (`openssl 3.0.14 → 3.0.15 security`),
    /// then each held back with why, then each dpkg left half-way; `security` marks those to
    /// show as such. Empty before a snapshot came.
    public func pendingLines(ofHost host: String) -> [(text: String, security: Bool)] {
        guard let snapshot = board?.pending[host] else { return [] }
        return snapshot.packages.map { ("\($0.name) \($0.versionText)" + ($0.isSecurity ? " security" : ""), $0.isSecurity) }
            + snapshot.heldBack.map { ("\($0.name) \($0.installedVersion) → \($0.availableVersion) held back: \($0.reason.text)", false) }
            + snapshot.notFullyInstalled.map { ("not fully installed: \($0) (\(snapshot.finishCommandText) finishes it)", true) }
    }

    /// `recomputing`, and the age of what is shown once it is 2 s old or more, while the host's
    /// engine computes a newer snapshot; nothing otherwise.
    private func recomputingParts(_ host: String, _ snapshot: PendingSnapshot) -> [String] {
        guard board?.pendingComputing.contains(host) == true else { return [] }
        let age = max(0, now.timeIntervalSince(snapshot.computedAt))
        return [age >= 2 ? "recomputing (shown: \(TimeText.remaining(age)) old)" : "recomputing"]
    }

    /// The header's words for a filter and an order other than the defaults: `showing
    /// security pending`, `sorted by pending`.
    public var boardOrderParts: [String] {
        guard let board else { return [] }
        var parts: [String] = []
        if board.hostFilter != .all { parts.append("showing \(board.hostFilter.title)") }
        if board.hostSort != .given { parts.append("sorted by \(board.hostSort.title)") }
        return parts
    }

    /// Whether `host` is in the state `filter` names.
    func hostMatches(_ host: BoardHost, _ filter: HostFilter) -> Bool {
        let snapshot = board?.pending[host.name]
        switch filter {
        case .all: return true
        case .upToDate: return snapshot?.isUpToDate == true
        case .pending: return (snapshot.map { $0.problem == nil && !$0.packages.isEmpty }) == true
        case .securityPending: return (snapshot?.securityCount ?? 0) > 0
        case .reboot: return needsReboot(host.name)
        case .failed:
            // dpkg left packages half-way: the host's last transaction did not finish.
            if snapshot?.notFullyInstalled.isEmpty == false { return true }
            guard let job = currentJob(ofHost: host.name), job.phase == .completed else { return false }
            return job.shownResultCode == .failed
        case .unreachable: return host.link.staleSince != nil
        }
    }

    /// A newer kernel waits, or the snapshot's or a job's restart advice says a reboot is needed.
    private func needsReboot(_ host: String) -> Bool {
        if let snapshot = board?.pending[host], snapshot.waitingKernel != nil || snapshot.restarts?.rebootRequired == true { return true }
        return restartAdvice(ofHost: host)?.rebootRequired == true || jobs(ofHost: host).contains { tally(of: $0).rebootRequired }
    }

    /// Hosts with no snapshot sort after every host with one.
    private func pendingCount(_ host: String) -> Int { board?.pending[host].map { $0.packages.count } ?? -1 }
    private func securityCount(_ host: String) -> Int { board?.pending[host].map { $0.securityCount } ?? -1 }

    // MARK: - Keys

    /// `F`: lists the hosts of the next state; the selection goes to the first host listed
    /// when its own is not in that state (else it would stay shown alone against the filter).
    mutating func cycleHostFilter() {
        guard let board else { return }
        let filter = board.hostFilter.next
        self.board?.hostFilter = filter
        if let selected = selectedHost, let host = board.host(named: selected), !hostMatches(host, filter),
           let first = board.hosts.first(where: { hostMatches($0, filter) }) {
            self.board?.returningJob = nil
            selectBoardRow(.host(first.name))
            selection.stopFollowingWork()
        }
        let shown = shownHosts.filter { hostMatches($0, filter) }.count
        say(filter == .all ? "Showing every host" : "Showing \(filter.title): \(shown) of \(board.hosts.count) \(board.hosts.count == 1 ? "host" : "hosts")")
        fixScrolling()
    }

    /// `o`: sorts the hosts the next way; the selection stays on its host, wherever its row goes.
    mutating func cycleHostSort() {
        guard let board else { return }
        let sort = board.hostSort.next
        self.board?.hostSort = sort
        say(sort == .given ? "Hosts in the order given" : "Hosts sorted by \(sort.title)")
        fixScrolling()
    }

    // MARK: - Events

    /// A host's snapshot, history or runs; answers for a history view that closed, or shows
    /// another host, are dropped (a run of one host must never be undone on another).
    mutating func handleHostAnswer(_ event: HostEvent) {
        switch event {
        case .pending(let host, let snapshot, let computing):
            guard board?.host(named: host) != nil else { return }
            if let snapshot { board?.pending[host] = snapshot }
            if computing { board?.pendingComputing.insert(host) } else { board?.pendingComputing.remove(host) }
        case .history(let host, let content):
            guard case .history(let view)? = overlay, view.host == host else { return }
            _ = historyLoaded(content)
        case .jobRuns(let host, let runs):
            guard case .history(let view)? = overlay, view.host == host else { return }
            _ = jobRunsLoaded(runs)
        default:
            return
        }
    }
}
