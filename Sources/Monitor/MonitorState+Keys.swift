import Foundation
import InstallEngine
import TerminalUI

extension MonitorState {
    /// Every key of this monitor with what it does, for the help overlay: attached, `q` and `d`
    /// detach.
    public var keyHelp: [(keys: String, action: String)] {
        guard isAttached else { return Self.keyHelp }
        return Self.keyHelp.dropLast() + [("q  d", "detach: the jobs keep running in the engine")]
    }

    /// Every key of the monitor in `installtop run`, with what it does.
    public static let keyHelp: [(keys: String, action: String)] = [
        ("↑ ↓  k j", "select (scroll in the output pane)"),
        ("Tab  Shift-Tab", "switch pane"),
        ("PgUp PgDn Home End", "move by a page, to the first or last"),
        ("Enter", "full output of the selected update (Esc or q closes)"),
        ("a", "abort the selected job (asks); again: force it"),
        ("A", "abort every job (asks); again: force"),
        ("c", "clean up the selected job (waits for it to complete)"),
        ("C", "clean up every completed job"),
        ("r", "re-queue a completed job's failed and aborted updates"),
        ("/", "filter jobs and updates (Enter keeps, Esc clears)"),
        ("h", "install history (/ filters, Esc closes)"),
        ("t", "next theme"),
        ("?", "this help"),
        ("q", "quit (asks while jobs run: they would be aborted)"),
    ]

    // MARK: - Dispatch

    mutating func handleKey(_ key: Key) -> [MonitorEffect] {
        switch overlay {
        case .help?:
            overlay = nil
            return []
        case .confirm(let question)?:
            return answer(question, key: key)
        case .fullOutput(let job, let index, let scroll)?:
            scrollFullOutput(job: job, index: index, scroll: scroll, key: key)
            return []
        case .history(let view)?:
            handleHistoryKey(key, view: view)
            return []
        case nil:
            break
        }
        if isEditingFilter, editFilter(key) { return [] }
        if let delta = navigationDelta(for: key) {
            move(by: delta)
            return []
        }
        switch key {
        case .tab: focusedPane = focusedPane.next
        case .backTab: focusedPane = focusedPane.previous
        case .enter: openFullOutput()
        case .escape:
            if !filterText.isEmpty { setFilter("") }
        case .character("a"): return abortSelectedJob()
        case .character("A"): return abortAllJobs()
        case .character("c"): return cleanUpSelectedJob()
        case .character("C"): return cleanUpCompletedJobs()
        case .character("r"): return retrySelectedJob()
        case .character("/"):
            isEditingFilter = true
        case .character("t"):
            themeIndex = (themeIndex + 1) % max(1, themeNames.count)
            say("Theme: \(themeNames.indices.contains(themeIndex) ? themeNames[themeIndex] : "default")")
        case .character("h"): return openHistory()
        case .character("?"): overlay = .help
        case .character("q") where isAttached, .character("d") where isAttached:
            return [.quit(abortRunning: false)]
        case .character("q"):
            return quitPhase == nil ? requestQuit() : forceQuit()
        case .character("d"):
            say("d detaches an attached monitor (installtop attach); q quits")
        default:
            break
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
        switch key {
        case .character("y"), .character("Y"):
            overlay = nil
            switch question {
            case .abortJob(let job, let name):
                say("Aborting \(name); press a again to force it")
                return [.command(.abort(job: job, force: false))]
            case .abortAll(let count):
                say("Aborting \(count) \(count == 1 ? "job" : "jobs"); press A again to force")
                return [.command(.abortAll(force: false))]
            case .quit:
                return confirmQuit()
            }
        case .character("n"), .character("N"), .character("q"), .escape:
            overlay = nil
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
        let name = job.descriptor.name
        if job.phase == .completed {
            say("\(name) has already completed")
            return []
        }
        if job.abortForced {
            say("\(name) is already being killed")
            return []
        }
        if job.abortRequested {
            say("Forcing the abort of \(name): its processes are killed now")
            return [.command(.abort(job: job.id, force: true))]
        }
        overlay = .confirm(.abortJob(job: job.id, name: name))
        return []
    }

    private mutating func abortAllJobs() -> [MonitorEffect] {
        let unfinished = queue.jobs.filter { $0.phase != .completed }
        if unfinished.isEmpty {
            say("No job to abort")
            return []
        }
        if unfinished.allSatisfy(\.abortRequested) {
            say("Forcing the abort of every job: their processes are killed now")
            return [.command(.abortAll(force: true))]
        }
        overlay = .confirm(.abortAll(count: unfinished.count))
        return []
    }

    private mutating func cleanUpSelectedJob() -> [MonitorEffect] {
        guard let job = selectedJob else {
            say("No job selected")
            return []
        }
        let name = job.descriptor.name
        if pendingCleanUps.contains(job.id) {
            say("Already waiting to clean up \(name)")
            return []
        }
        pendingCleanUps.insert(job.id)
        say(job.phase == .completed ? "Cleaning up \(name)" : "Waiting for \(name) to complete, then cleaning it up")
        return [.command(.cleanUp(job: job.id))]
    }

    private mutating func cleanUpCompletedJobs() -> [MonitorEffect] {
        let ids = queue.jobs.filter { $0.phase == .completed && !pendingCleanUps.contains($0.id) }.map(\.id)
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
        let name = job.descriptor.name
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

    /// Handles a key typed into the filter; false for keys that keep their usual meaning.
    private mutating func editFilter(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            setFilter(filterText + String(character))
        case .backspace:
            if !filterText.isEmpty { setFilter(String(filterText.dropLast())) }
        case .enter:
            isEditingFilter = false
        case .escape:
            isEditingFilter = false
            setFilter("")
        default:
            return false
        }
        return true
    }

    mutating func setFilter(_ text: String) {
        filterText = text
        filter.set(text, jobs: queue.jobs)
        let jobs = visibleJobs
        guard let job = selectedJob, filter.shows(job: job.id) else {
            if let first = jobs.first { select(job: first.id) } else {
                selectedJobID = nil
                selectedUpdateIndex = nil
            }
            return
        }
        let updates = visibleUpdates(of: job)
        selectedUpdateIndex = selectedUpdateIndex.flatMap { updates.nearestRow(to: $0) }.map { updates[$0] }
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
        let page = max(1, MonitorLayout.innerRows(layout.body))
        let lines = queue.job(job).map { $0.updates.indices.contains(index) ? $0.updates[index].output.lines.count : 0 } ?? 0
        let maximum = max(0, lines - page)
        var newScroll = scroll
        switch key {
        case .escape, .character("q"), .enter:
            overlay = nil
            return
        case .up, .character("k"): newScroll += 1
        case .down, .character("j"): newScroll -= 1
        case .pageUp: newScroll += page
        case .pageDown: newScroll -= page
        case .home: newScroll = maximum
        case .end: newScroll = 0
        default: break
        }
        overlay = .fullOutput(job: job, index: index, scroll: min(max(0, newScroll), maximum))
    }
}
