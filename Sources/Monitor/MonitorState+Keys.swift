#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TerminalUI

extension MonitorState {
    /// Every key of this monitor with what it does, for the help overlay (from `MonitorKeyMap`):
    /// attached, `q` and `d` detach.
    public var keyHelp: [(keys: String, action: String)] {
        MonitorKeyMap.bindings(attached: isAttached, board: board != nil).compactMap { binding in binding.helpKeys.map { ($0, binding.help) } }
    }

    /// Every key of the monitor in `installtop run`, with what it does.
    public static var keyHelp: [(keys: String, action: String)] { keyHelp(attached: false) }

    private static func keyHelp(attached: Bool) -> [(keys: String, action: String)] {
        MonitorKeyMap.bindings(attached: attached).compactMap { binding in binding.helpKeys.map { ($0, binding.help) } }
    }

    // MARK: - Dispatch

    mutating func handleKey(_ key: Key) -> [MonitorEffect] {
        switch overlay {
        case .help(let scroll)?:
            overlay = HelpView(state: self).scroll(scroll, after: key).map { .help(scroll: $0) }
            return []
        case .confirm(let question)?:
            return answer(question, key: key)
        case .fullOutput(let job, let index, let scroll)?:
            scrollFullOutput(job: job, index: index, scroll: scroll, key: key)
            return []
        case .jobDetail(let job, let scroll)?:
            scrollJobDetail(job: job, scroll: scroll, key: key)
            return []
        case .history(let view)?:
            return handleHistoryKey(key, view: view)
        case .rollout?:
            return handleRolloutKey(key)
        case nil:
            break
        }
        if filterInput.isEditing, let changed = filterInput.edit(key) {
            if changed { setFilter(filterInput.text) }
            return []
        }
        guard let binding = MonitorKeyMap.binding(for: key, attached: isAttached, board: board != nil) else { return [] }
        return perform(binding.action, key: key)
    }

    /// What `action` does, `key` being the key that asked for it.
    private mutating func perform(_ action: MonitorAction, key: Key) -> [MonitorEffect] {
        switch action {
        case .navigate: if let delta = navigationDelta(for: key) { move(by: delta) }
        case .nextPane: selection.switchPane(forward: true)
        case .previousPane: selection.switchPane(forward: false)
        case .followWork: resumeFollowingWork()
        case .openFullOutput: if focusedPane == .jobs { openJobDetail() } else { openFullOutput() }
        case .clearFilter: if !filterText.isEmpty { setFilter("") }
        case .abortSelectedJob: return abortSelectedJob()
        case .abortAllJobs: return abortAllJobs()
        case .cleanUpSelectedJob: return cleanUpSelectedJob()
        case .cleanUpCompletedJobs: return cleanUpCompletedJobs()
        case .retrySelectedJob: return retrySelectedJob()
        case .restartServices: requestServiceRestarts()
        case .editFilter: filterInput.beginEditing()
        case .nextTheme:
            themeIndex = (themeIndex + 1) % max(1, themeNames.count)
            say("Theme: \(themeNames.indices.contains(themeIndex) ? themeNames[themeIndex] : "default")")
        case .openHistory: return openHistory()
        case .openHelp: overlay = .help(scroll: 0)
        case .quit: return quitPhase == nil ? requestQuit() : forceQuit()
        case .detach:
            if isAttached { return requestDetach() }
            say("d detaches an attached monitor (installtop attach); q quits")
        case .toggleHost: toggleSelectedHost()
        case .markHost: markSelectedHost()
        case .markShownHosts: markShownHosts()
        case .upgradeMarkedHosts: return upgradeMarkedHosts(full: false)
        case .fullUpgradeMarkedHosts: return upgradeMarkedHosts(full: true)
        case .stopRollout: return stopRollout()
        case .cycleHostFilter: cycleHostFilter()
        case .cycleHostSort: cycleHostSort()
        case .refreshHosts: return refreshHosts()
        case .openShell: return openHostShell()
        case .keepArmedRun: return keepArmedRun()
        case .cycleConfirmWindow: cycleConfirmWindow()
        case .toggleConfirmByLogin: toggleConfirmByLogin()
        }
        return []
    }

    /// Rows to move for a navigation key in the focused pane (`Int.min`/`Int.max` for the ends).
    private func navigationDelta(for key: Key) -> Int? {
        let page = max(1, pageSize(of: focusedPane))
        switch key {
        case .up, .character("k"): return -1
        case .down, .character("j"): return 1
        case .pageUp: return -page
        case .pageDown: return page
        case .home: return Int.min
        case .end: return Int.max
        default: return nil
        }
    }

    // MARK: - Dialogs

    private mutating func answer(_ question: Confirmation, key: Key) -> [MonitorEffect] {
        if case .startJob(let job, let name, let updates, let scroll) = question,
           let next = PlanDialog(job: job, name: name, state: self).scroll(scroll, after: key) {
            overlay = .confirm(.startJob(job: job, name: name, updates: updates, scroll: next))
            return []
        }
        if case .restartServices(let plan, let scroll) = question,
           let next = RestartDialog(plan: plan, state: self).scroll(scroll, after: key) {
            overlay = .confirm(.restartServices(plan, scroll: next))
            return []
        }
        switch key {
        case .character("y"), .character("Y"):
            overlay = nil
            switch question {
            case .abortJob(let job, let name):
                // The job may have ended while the question was open: nothing is left to abort.
                guard queue.job(job).map({ $0.phase != .completed }) == true else {
                    say("\(name) has already completed")
                    return []
                }
                say("Aborting \(name); press a again to force it", whileUnfinished: [job])
                return [.command(.abort(job: job, force: false))]
            case .abortAll:
                // Those that ended while the question was open are not counted.
                let jobs = Set(abortableJobs.map(\.id))
                guard !jobs.isEmpty else {
                    say("No job to abort")
                    return []
                }
                say("Aborting \(jobs.count) \(jobs.count == 1 ? "job" : "jobs")\(selectedHost.map { " on \($0)" } ?? ""); press A again to force",
                    whileUnfinished: jobs)
                return abortAllEffects(force: false)
            case .quit:
                return confirmQuit()
            case .startJob(let job, let name, _, _):
                if let state = queue.job(job), refusesStale(state) { return [] }
                confirmedJobs.insert(job)
                say("Starting \(name)")
                return [.command(.confirm(job: job))]
            case .restartServices(let plan, _):
                return confirmServiceRestarts(plan)
            case .quitRollout:
                return quitRollout()
            case .undoRun(let run, let host):
                return confirmUndo(run: run, onHost: host)
            }
        case .character("n"), .character("N"), .character("q"), .escape:
            overlay = nil
            if case .startJob(let job, let name, _, _) = question {
                if let state = queue.job(job), refusesStale(state) { return [] }
                // A no to the plan, as apt-get's: the job leaves without running or any record.
                say("Not started: \(name) (its plan was declined)")
                let decline = MonitorEffect.command(.decline(job: job))
                // Nothing else to watch: the monitor ends, as apt-get does at its "n".
                return queue.jobs.allSatisfy({ $0.id == job }) && !isAttached ? [decline, .quit(abortRunning: false)] : [decline]
            }
            say("Cancelled")
            return []
        default:
            return []
        }
    }

    // MARK: - Job commands

    private mutating func abortSelectedJob() -> [MonitorEffect] {
        guard let job = selectedJob else {
            say("No job selected")
            return []
        }
        if refusesStale(job) { return [] }
        let name = boardName(of: job)
        if job.phase == .completed {
            say("\(name) has already completed")
            return []
        }
        if job.abortForced {
            say("\(name) is already being killed")
            return []
        }
        if let refusal = JobStopBehaviour(job.descriptor).refusal(name: name) {
            say(refusal)
            return []
        }
        if job.abortRequested {
            say("Forcing the abort of \(name): " + JobStopBehaviour(job.descriptor).forcing)
            return [.command(.abort(job: job.id, force: true))]
        }
        overlay = .confirm(.abortJob(job: job.id, name: name))
        return []
    }

    private mutating func abortAllJobs() -> [MonitorEffect] {
        // Watched jobs go on whatever is asked (rule 29): they are not counted as aborted.
        if board != nil, let job = abortAllScope.first, refusesStale(job) { return [] }
        let unfinished = abortableJobs
        if unfinished.isEmpty {
            let watched = abortAllScope.count { $0.phase != .completed }
            say(watched == 0 ? "No job to abort"
                : "No job to abort: installtop only watches the \(watched == 1 ? "running one" : "\(watched) running ones") and cannot stop \(watched == 1 ? "it" : "them")")
            return []
        }
        if unfinished.allSatisfy(\.abortRequested) {
            say("Forcing the abort of every job\(selectedHost.map { " on \($0)" } ?? ""): their processes are killed now")
            return abortAllEffects(force: true)
        }
        overlay = .confirm(.abortAll(count: unfinished.count))
        return []
    }

    private mutating func cleanUpSelectedJob() -> [MonitorEffect] {
        guard let job = selectedJob else {
            say("No job selected")
            return []
        }
        if refusesStale(job) { return [] }
        let name = boardName(of: job)
        if pendingCleanUps.contains(job.id) {
            say("Already waiting to clean up \(name)")
            return []
        }
        pendingCleanUps.insert(job.id)
        say(job.phase == .completed ? "Cleaning up \(name)" : "Waiting for \(name) to complete, then cleaning it up")
        return [.command(.cleanUp(job: job.id))]
    }

    private mutating func cleanUpCompletedJobs() -> [MonitorEffect] {
        // On the board, an unreachable host's stale jobs cannot be told anything.
        let ids = queue.jobs.filter { $0.phase == .completed && !pendingCleanUps.contains($0.id)
            && host(ofJob: $0.id).flatMap { staleAge(ofHost: $0) } == nil }.map(\.id)
        guard !ids.isEmpty else {
            say("No completed job to clean up")
            return []
        }
        pendingCleanUps.formUnion(ids)
        say("Cleaning up \(ids.count) completed \(ids.count == 1 ? "job" : "jobs")")
        return ids.map { .command(.cleanUp(job: $0)) }
    }

    private mutating func retrySelectedJob() -> [MonitorEffect] {
        guard let job = selectedJob else {
            say("No job selected")
            return []
        }
        if refusesStale(job) { return [] }
        let name = boardName(of: job)
        guard job.phase == .completed else {
            say("\(name) has not completed: nothing to retry yet")
            return []
        }
        let count = job.updates.count { $0.result.resultCode == .failed || $0.result.resultCode == .aborted }
        guard count > 0 else {
            say("\(name) has no failed or aborted updates to retry")
            return []
        }
        say("Re-queued \(count) \(count == 1 ? "update" : "updates") of \(name) as a new job")
        return [.command(.retry(job: job.id))]
    }

    // MARK: - Filter

    /// Shows the jobs and updates that match `text`, keeping the selection where it is still
    /// shown (or on the nearest update shown), else on the first job shown.
    mutating func setFilter(_ text: String) {
        filterInput.set(text)
        filter.set(text, jobs: queue.jobs)
        guard let job = selectedJob, filter.shows(job: job.id) else {
            if let first = visibleJobs.first { select(job: first.id) } else { selection.clear() }
            return
        }
        let updates = visibleUpdates(of: job)
        selection.updateIndex = selection.updateIndex.flatMap { updates.nearestRow(to: $0) }.map { updates[$0] }
    }

    // MARK: - Full output

    private mutating func openFullOutput() {
        guard let job = selectedJob, let index = selectedUpdateIndex, job.updates.indices.contains(index) else {
            say("No update selected")
            return
        }
        overlay = .fullOutput(job: job.id, index: index, scroll: 0)
    }

    private mutating func scrollFullOutput(job: Int, index: Int, scroll: Int, key: Key) {
        let update = queue.job(job).flatMap { $0.updates.indices.contains(index) ? $0.updates[index] : nil }
        // A finished update's result line takes the view's first row: Home must still reach line 1.
        let summaryRows = update.flatMap { MonitorRenderer.resultSummary(of: $0, state: self) } == nil ? 0 : 1
        let page = max(1, MonitorLayout.innerRows(layout.body) - summaryRows)
        let lines = update?.output.lines.count ?? 0
        overlay = MonitorOverlay.fullOutputScroll(scroll, after: key, lines: lines, page: page)
            .map { .fullOutput(job: job, index: index, scroll: $0) }
    }
}
