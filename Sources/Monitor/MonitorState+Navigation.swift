import InstallEngine
import TerminalUI

extension MonitorState {
    /// Rows of items a pane shows at the current size.
    func pageSize(of pane: MonitorPane) -> Int {
        let layout = self.layout
        switch pane {
        case .jobs: return MonitorLayout.innerRows(layout.jobs)
        case .updates: return MonitorLayout.innerRows(layout.updates)
        case .output: return MonitorLayout.innerRows(layout.output)
        }
    }

    /// Moves the focused pane's selection (or the output's scroll position) by `delta` rows,
    /// clamped to the list; `Int.min` and `Int.max` go to the ends.
    mutating func move(by delta: Int) {
        switch focusedPane {
        case .jobs where board != nil:
            moveOnBoard(by: delta)
        case .jobs:
            let jobs = visibleJobs
            guard !jobs.isEmpty else { return }
            let row = jobs.firstIndex { $0.id == selectedJobID } ?? 0
            let target = jobs[clampedRow(row, delta, count: jobs.count)].id
            if target != selectedJobID { select(job: target) }
            selection.stopFollowingWork()
        case .updates:
            guard let job = selectedJob else { return }
            let updates = visibleUpdates(of: job)
            guard !updates.isEmpty else { return }
            let row = selectedUpdateIndex.flatMap { updates.nearestRow(to: $0) } ?? 0
            let target = updates[clampedRow(row, delta, count: updates.count)]
            selection.pick(update: target)
            selection.stopFollowingWork()
        case .output:
            selection.scrollOutput(by: delta)
        }
    }

    /// Selects job `id` and, in it, the running update (or the first shown).
    mutating func select(job id: Int) {
        guard let job = queue.job(id) else {
            selection.select(job: id, update: nil)
            return
        }
        let updates = visibleUpdates(of: job)
        if let running = tally(of: job).running, updates.row(of: running) != nil {
            selection.select(job: id, update: running)
        } else {
            selection.select(job: id, update: updates.first)
        }
    }

    /// While the selection follows the work and the selected job is not running, selects the
    /// first running job shown (in queue order; on the board the selected host's first), at its
    /// running update. Not under an overlay: a question or the full output is about the job
    /// selected when it opened.
    mutating func followWork() {
        guard selection.followsWork, overlay == nil, selectedJob?.phase != .running else { return }
        if let host = selectedHost, board?.hostsAwaitingSnapshot.contains(host) == true { return }
        // A host whose queue was shown afresh has its running job back: the work it followed.
        let ownRunning = selectedHost.flatMap { host in jobs(ofHost: host).first { $0.phase == .running && filter.shows(job: $0.id) } }
        guard let next = ownRunning ?? queue.jobs.first(where: { $0.phase == .running && filter.shows(job: $0.id) }) else { return }
        select(job: next.id)
    }

    /// `f`: the selection follows the work again, from the running job's running update.
    mutating func resumeFollowingWork() {
        selection.resumeFollowingWork()
        if let job = selectedJob, job.phase == .running {
            select(job: job.id)
        } else {
            followWork()
        }
        say("Following the running job")
    }

    /// Brings the scroll offsets in line with the selection and the size: the selection stays
    /// visible and no pane scrolls past its end.
    mutating func fixScrolling() {
        if board != nil {
            let rows = boardRows
            selection.jobsOffset = ListView.offset(
                itemCount: rows.count, selected: selectedBoardRow.flatMap { rows.firstIndex(of: $0) }, visibleRows: pageSize(of: .jobs),
                previousOffset: jobsOffset)
        } else {
            let jobs = visibleJobs
            let jobRow = jobs.firstIndex { $0.id == selectedJobID }
            selection.jobsOffset = ListView.offset(
                itemCount: jobs.count, selected: jobRow, visibleRows: pageSize(of: .jobs), previousOffset: jobsOffset)
        }
        if let job = selectedJob {
            let updates = visibleUpdates(of: job)
            let updateRow = selectedUpdateIndex.flatMap { updates.row(of: $0) }
            selection.updatesOffset = ListView.offset(
                itemCount: updates.count, selected: updateRow, visibleRows: pageSize(of: .updates), previousOffset: updatesOffset)
            let lines = selectedUpdateIndex.map { job.updates.indices.contains($0) ? job.updates[$0].output.lines.count : 0 } ?? 0
            selection.clampOutputScroll(lines: lines, page: pageSize(of: .output))
        } else {
            selection.updatesOffset = 0
            selection.outputScroll = 0
        }
    }

    private func clampedRow(_ row: Int, _ delta: Int, count: Int) -> Int {
        if delta == Int.min { return 0 }
        if delta == Int.max { return count - 1 }
        return min(max(0, row + delta), count - 1)
    }
}
