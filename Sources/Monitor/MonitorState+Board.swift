#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import RestartScan

/// The grouped board (`installtop attach --host …`): jobs grouped by host, host counts, stale
/// hosts. Nothing here runs for a monitor of one engine (`board` stays `nil`).
extension MonitorState {
    // MARK: - Queries

    /// The host of board job `id`; `nil` off the board or for a job of no known host.
    public func host(ofJob id: Int) -> String? { board?.origins[id]?.host }

    /// The jobs of `host`, in the order they arrived.
    public func jobs(ofHost host: String) -> [JobState] {
        guard let board else { return [] }
        return (board.jobsByHost[host] ?? []).compactMap { queue.job($0) }
    }

    /// The job a host's row stands for, its bar and percent being that job's alone: its running
    /// job, else its newest queued one (what was asked last), else the one that completed last
    /// (the newest of those that completed at once); `nil` for a host with no job.
    public func currentJob(ofHost host: String) -> JobState? {
        let jobs = jobs(ofHost: host)
        if let running = jobs.first(where: { $0.phase == .running }) { return running }
        if let queued = jobs.last(where: { $0.phase == .queued }) { return queued }
        return jobs.enumerated().max { ($0.element.completedAt ?? .distantPast, $0.offset) < ($1.element.completedAt ?? .distantPast, $1.offset) }?
            .element
    }

    /// The host the selection is on: its row's, or the selected job's.
    public var selectedHost: String? {
        board?.selectedHost ?? selectedJobID.flatMap { host(ofJob: $0) }
    }

    /// The jobs pane's rows on the board: each host, then its jobs when it is expanded (those
    /// the filter shows).
    public var boardRows: [BoardRow] {
        guard let board else { return [] }
        var rows: [BoardRow] = []
        for host in shownHosts {
            rows.append(.host(host.name))
            if board.expanded.contains(host.name) {
                rows += jobs(ofHost: host.name).filter { filter.shows(job: $0.id) }.map { .job($0.id) }
            }
        }
        return rows
    }

    /// The selected row of the board.
    public var selectedBoardRow: BoardRow? {
        guard let board else { return nil }
        if let host = board.selectedHost { return .host(host) }
        return selectedJobID.map { .job($0) }
    }

    /// The restart advice of `host`'s job that completed last with one.
    public func restartAdvice(ofHost host: String) -> RestartAdvice? {
        jobs(ofHost: host).filter { $0.result?.restartAdvice != nil }
            .max { ($0.completedAt ?? .distantPast) < ($1.completedAt ?? .distantPast) }?
            .result?.restartAdvice
    }

    /// The header's counts of hosts.
    public var hostCounts: HostCounts {
        var counts = HostCounts()
        guard let board else { return counts }
        for host in board.hosts {
            counts.total += 1
            let jobs = jobs(ofHost: host.name)
            switch host.link {
            case .unreachable, .silent: counts.unreachable += 1
            case .connecting where !host.everConnected: counts.connecting += 1
            case .connecting, .connected:
                if jobs.contains(where: { $0.phase == .running && !$0.onlyAwaitsRestartScan }) {
                    counts.installing += 1
                } else if let newest = jobs.last(where: { $0.phase == .completed }), newest.shownResultCode == .failed,
                          !jobs.contains(where: { $0.phase != .completed }) {
                    counts.failed += 1
                } else {
                    counts.idle += 1
                }
            }
            let advice = restartAdvice(ofHost: host.name)
            if jobs.contains(where: { tally(of: $0).rebootRequired }) || advice?.rebootRequired == true {
                counts.rebootRequired += 1
            }
            if (advice?.services.count ?? 0) > 0 { counts.servicesToRestart += 1 }
        }
        return counts
    }

    /// How long ago `host`'s jobs were last current: `nil` while its link is up and its engine
    /// answers.
    public func staleAge(ofHost host: String) -> TimeInterval? {
        guard let since = board?.host(named: host)?.link.staleSince else { return nil }
        return max(0, now.timeIntervalSince(since))
    }

    /// `job`'s name as questions and messages say it: on the board with its host (`Slow job
    /// on web2`), so that the operator knows which engine is asked.
    func boardName(of job: JobState) -> String {
        host(ofJob: job.id).map { "\(job.descriptor.name) on \($0)" } ?? job.descriptor.name
    }

    /// Says so and returns true when `job`'s host is unreachable or silent: what is shown of it
    /// is stale, and nothing can reach its engine (a silent engine would act on a command only
    /// when, and if, it wakes: an abort sent now could land an hour later).
    mutating func refusesStale(_ job: JobState) -> Bool {
        host(ofJob: job.id).map { refusesStale(host: $0) } ?? false
    }

    /// `refusesStale` for what is asked of `host` with no job of its own (a restart of its
    /// services).
    mutating func refusesStale(host: String) -> Bool {
        guard let link = board?.host(named: host)?.link, let seconds = staleAge(ofHost: host) else { return false }
        let age = TimeText.elapsed(seconds)
        if case .silent = link {
            say("\(host) does not answer: its jobs are as they were \(age) ago, and nothing is sent to it until it answers")
        } else {
            say("\(host) is unreachable: its jobs are as they were \(age) ago, and nothing can be sent to it")
        }
        return true
    }

    /// The jobs `A` aborts: every job, or on the board the selected host's (keys act through
    /// one host's engine).
    var abortAllScope: [JobState] {
        guard board != nil else { return queue.jobs }
        return selectedHost.map { jobs(ofHost: $0) } ?? []
    }

    /// The jobs of `abortAllScope` an abort stops: the unfinished ones, watched jobs left out
    /// (rule 29: they go on whatever is asked).
    var abortableJobs: [JobState] {
        abortAllScope.filter { $0.phase != .completed && $0.descriptor.observedBy == nil }
    }

    /// What `A` sends: `abortAll`, or on the board an abort of each unfinished job of the
    /// selected host (its engine's other clients' jobs elsewhere stay untouched).
    func abortAllEffects(force: Bool) -> [MonitorEffect] {
        guard board != nil else { return [.command(.abortAll(force: force))] }
        return abortAllScope.filter { $0.phase != .completed && $0.descriptor.observedBy == nil }
            .map { .command(.abort(job: $0.id, force: force)) }
    }

    // MARK: - Events

    mutating func handleHost(_ event: HostEvent) -> [MonitorEffect] {
        switch event {
        case .hosts(let names):
            board = HostBoard(hosts: names)
            syncBoardSelection()
        case .connecting(let host):
            board?.update(host) { host in
                // An unreachable host keeps showing why until it answers again.
                if case .unreachable = host.link { return }
                host.link = .connecting
            }
        case .queueReplaced(let host):
            // A job row of this host stays selected once its job is back (`queueShown`); until
            // then the selection holds the host's row (`keepBoardSelection`).
            if case .job(let id)? = selectedBoardRow, self.host(ofJob: id) == host { board?.returningJob = id }
            board?.hostsAwaitingSnapshot.insert(host)
            let old = jobs(ofHost: host).map(\.id)
            for job in old { _ = handleEngine(EngineEvent(time: now, kind: .jobCleanedUp(job: job))) }
            board?.update(host) { host in
                host.link = .connected
                host.everConnected = true
            }
            if let name = board?.host(named: host)?.name, !old.isEmpty { say("\(name): connected again, its queue shown afresh") }
        case .queueShown(let host):
            board?.hostsAwaitingSnapshot.remove(host)
            if let job = board?.returningJob, self.host(ofJob: job) == host {
                board?.returningJob = nil
                if board?.selectedHost == host, board?.expanded.contains(host) == true, queue.job(job) != nil, filter.shows(job: job) {
                    selectBoardRow(.job(job))
                }
            }
            followWork()
        case .unreachable(let host, let reason, let retryAt):
            // Its jobs are as they were when it was first lost, or fell silent before that.
            let since = board?.host(named: host)?.link.staleSince ?? now
            board?.update(host) { $0.link = .unreachable(reason: reason, since: since, retryAt: retryAt) }
        case .silent(let host, let since):
            board?.update(host) { host in
                if case .connected = host.link { host.link = .silent(since: since) }
            }
        case .answersAgain(let host):
            board?.update(host) { host in
                if case .silent = host.link { host.link = .connected }
            }
        case .jobOrigin(let job, let origin):
            board?.setOrigin(origin, forBoardJob: job)
        case .upgradeRefused(let host, let reason, let upToDate):
            rolloutRefused(host: host, reason: reason, upToDate: upToDate)
        case .refreshQueued(let host, let job):
            refreshQueued(host: host, job: job)
        case .refreshRefused(let host, let reason):
            refreshRefused(host: host, reason: reason)
        case .pending, .history, .jobRuns:
            handleHostAnswer(event)
        case .armed(let host, let runs):
            return armedRunsChanged(runs, host: host)
        case .freshLogin(let host, let run, let failure):
            return freshLoginEnded(host: host, run: run, failure: failure)
        case .night(let night):
            board?.night = night
        }
        syncBoardSelection()
        fixScrolling()
        return [.redraw]
    }

    // MARK: - Selection

    /// Moves the board's selection by `delta` rows (`Int.min`/`Int.max`: to the ends).
    mutating func moveOnBoard(by delta: Int) {
        let rows = boardRows
        guard !rows.isEmpty else { return }
        board?.returningJob = nil
        let row = selectedBoardRow.flatMap { rows.firstIndex(of: $0) } ?? 0
        let target = delta == Int.min ? 0 : delta == Int.max ? rows.count - 1 : min(max(0, row + delta), rows.count - 1)
        selectBoardRow(rows[target])
        selection.stopFollowingWork()
    }

    /// Selects `row`: a host's row selects its current job (the updates pane shows it, keys
    /// act on it).
    mutating func selectBoardRow(_ row: BoardRow) {
        switch row {
        case .host(let host):
            board?.selectedHost = host
            if let job = currentJob(ofHost: host) {
                if job.id != selectedJobID { select(job: job.id) }
            } else {
                selection.clear()
            }
        case .job(let id):
            board?.selectedHost = nil
            if id != selectedJobID { select(job: id) }
        }
    }

    /// The selected job `job` left the queue (cleaned up, or its host's queue replaced): the
    /// selection stays with the job's host, never moving to another host's job, on which the
    /// next key would act. On the host's row it follows the host's current job
    /// (`syncBoardSelection`); on a job row it goes to the host's next job shown, else the one
    /// before, else the host's row.
    mutating func keepBoardSelection(afterLeaving job: Int) {
        selection.clear()
        guard let board, board.selectedHost == nil, let host = host(ofJob: job) else { return }
        let shown = board.expanded.contains(host)
            ? (board.jobsByHost[host] ?? []).filter { $0 != job && queue.job($0) != nil && filter.shows(job: $0) } : []
        // `jobsByHost` is in board numbers' order, the order of the rows under the host.
        if let neighbour = shown.first(where: { $0 > job }) ?? shown.last {
            selectBoardRow(.job(neighbour))
        } else {
            selectBoardRow(.host(host))
        }
    }

    /// Keeps the board's row and the selected job in step after anything changed them: a host
    /// row follows its host's current job; a job chosen elsewhere (following the work, a
    /// clean-up) selects its host's row unless that host is expanded.
    mutating func syncBoardSelection() {
        guard let board else { return }
        let jobHost = selectedJobID.flatMap { host(ofJob: $0) }
        if let selectedHost = board.selectedHost {
            if let job = selectedJobID, let jobHost, jobHost != selectedHost {
                // Moved elsewhere by following the work.
                let listed = board.expanded.contains(jobHost) && currentJob(ofHost: jobHost)?.id != job
                selectBoardRow(listed ? .job(job) : .host(jobHost))
            } else {
                selectBoardRow(.host(selectedHost))
            }
        } else if let jobHost, board.expanded.contains(jobHost) {
            return
        } else if let host = jobHost ?? board.hosts.first?.name {
            selectBoardRow(.host(host))
        }
    }

    /// `→`, `←` or Space: shows or folds the selected host's jobs.
    mutating func toggleSelectedHost() {
        guard let board else { return }
        guard let host = board.selectedHost ?? selectedJobID.flatMap({ self.host(ofJob: $0) }) else { return }
        self.board?.returningJob = nil
        if board.expanded.contains(host) {
            self.board?.expanded.remove(host)
            selectBoardRow(.host(host))
        } else {
            self.board?.expanded.insert(host)
        }
    }
}
