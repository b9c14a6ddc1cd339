import InstallEngine
import TerminalUI

/// The board's marks and rollout (`m`, `M`, `U`, `X`; `Rollout`): nothing here runs for a
/// monitor of one engine.
extension MonitorState {
    // MARK: - Marks

    /// The names of the hosts the board shows now (its filter's), in their order.
    var shownHostNames: [String] { shownHosts.map(\.name) }

    /// `m`: marks the selected host, or unmarks it.
    mutating func markSelectedHost() {
        guard let host = selectedHost, let board else { return }
        if board.marked.contains(host) {
            self.board?.marked.remove(host)
            say("\(host) unmarked (\(self.board?.marked.count ?? 0) marked)")
        } else {
            self.board?.marked.insert(host)
            say("\(host) marked (\(self.board?.marked.count ?? 0) marked): U upgrades the marked hosts")
        }
    }

    /// `M`: marks every host shown; when they all are, clears every mark.
    mutating func markShownHosts() {
        guard let board else { return }
        let shown = shownHostNames
        if !shown.isEmpty, Set(shown).isSubset(of: board.marked) {
            self.board?.marked = []
            say("Marks cleared")
        } else {
            self.board?.marked.formUnion(shown)
            say("\(self.board?.marked.count ?? 0) marked: U upgrades them")
        }
    }

    /// The marked hosts' names, in board order.
    var markedHostNames: [String] {
        guard let board else { return [] }
        return board.hosts.map(\.name).filter(board.marked.contains)
    }

    /// `hosts` split, in order, into those something can be sent to and those unreachable or
    /// silent (stale), which a rollout or a refresh leaves out.
    func reachable(_ hosts: [String]) -> (reachable: [String], stale: [String]) {
        (hosts.filter { staleAge(ofHost: $0) == nil }, hosts.filter { staleAge(ofHost: $0) != nil })
    }

    // MARK: - Starting

    /// `U` (`D`: `full`): continues a paused rollout, shows the plans of one still asking, or
    /// upgrades the marked hosts (the selected one when none is), in board order: each host's
    /// engine is sent an `apt upgrade` (`apt full-upgrade`) without a yes and holds its plan for
    /// the dialog. Stale hosts are left out (nothing reaches them) and said so.
    mutating func upgradeMarkedHosts(full: Bool) -> [MonitorEffect] {
        guard let board else { return [] }
        if let rollout, !rollout.isOver {
            if rollout.pausedBy != nil { return continueRollout() }
            if !rollout.answered {
                overlay = .rollout
                return []
            }
            say("A rollout runs: \(rollout.leftCount) left, \(rollout.runningCount) running; X stops it")
            return []
        }
        let wanted = board.marked.isEmpty ? selectedHost.map { [$0] } ?? [] : markedHostNames
        let (hosts, stale) = reachable(wanted)
        guard !hosts.isEmpty else {
            say(wanted.isEmpty ? "No host to upgrade: m marks hosts" : "Nothing reaches \(stale.joined(separator: ", ")) now: nothing was sent")
            return []
        }
        rollout = Rollout(hosts: hosts, parallel: rolloutParallel, full: full, confirmSeconds: confirmWindowSeconds)
        armedRolloutSince = confirmWindowSeconds == nil ? nil : now
        overlay = .rollout
        if !stale.isEmpty { say("Left out, unreachable or silent: \(stale.joined(separator: ", "))") }
        return hosts.map { .upgradeOnHost(host: $0, full: full, confirmSeconds: confirmWindowSeconds) }
    }

    /// Takes job `descriptor` as its host's rollout upgrade when that host's plan is awaited:
    /// held for the dialog rather than asked about on its own. True when it was taken, or is
    /// already the host's (its queue shown afresh after a reconnect: the rollout answers it).
    mutating func claimRolloutJob(_ descriptor: JobDescriptor) -> Bool {
        guard descriptor.awaitsConfirmation, let full = rollout?.full, descriptor.name.hasPrefix(Rollout.jobName(full: full) + " · ")
                || descriptor.name == Rollout.jobName(full: full),
              let host = host(ofJob: descriptor.id), rollout != nil else { return false }
        return rollout!.planHeld(host: host, job: descriptor.id)
    }

    /// `host`'s engine refused the rollout's upgrade (or had nothing to upgrade): nothing of
    /// it waits there; a refusal is said.
    mutating func rolloutRefused(host: String, reason: String, upToDate: Bool) {
        guard rollout?.planRefused(host: host, reason: reason, upToDate: upToDate) == true else { return }
        if !upToDate { say("\(host): \(reason)") }
    }

    // MARK: - The dialog

    /// A key while the plans' dialog is open: ↑ ↓ move between hosts, Space leaves one out or
    /// takes it back, PgUp PgDn scroll, `y` starts the hosts taken, `n`, `q` or Esc declines
    /// every plan.
    mutating func handleRolloutKey(_ key: Key) -> [MonitorEffect] {
        guard var rollout else {
            overlay = nil
            return []
        }
        let dialog = RolloutDialog(state: self)
        switch key {
        case .up, .character("k"), .down, .character("j"):
            let step = key == .up || key == .character("k") ? -1 : 1
            rollout.cursor = min(max(0, rollout.cursor + step), rollout.hosts.count - 1)
            rollout.scroll = dialog.scroll(rollout.scroll, showing: rollout.cursor)
        case .pageUp, .pageDown, .home, .end:
            rollout.scroll = DialogScroll.scroll(rollout.scroll, after: key, page: dialog.listHeight, maximum: dialog.maximumScroll)
                ?? rollout.scroll
        case .character(" "):
            rollout.toggleIncluded(at: rollout.cursor)
        case .character("y"), .character("Y"):
            overlay = nil
            rollout.answer(yes: true)
            self.rollout = rollout
            let count = rollout.hosts.count(where: \.included)
            // Marking moved the selection, which stopped it following the work: the view now
            // follows the host that runs, until the operator moves it on purpose.
            if count > 0 { selection.resumeFollowingWork() }
            say(count == 0 ? "No host taken: every plan declined"
                : "Upgrading \(count) \(count == 1 ? "host" : "hosts"), \(rollout.parallel) at a time; the view follows the running host until you move it (f follows again)")
            return advanceRollout()
        case .character("n"), .character("N"), .character("q"), .escape:
            overlay = nil
            rollout.answer(yes: false)
            self.rollout = rollout
            say("Not started: every plan declined, nothing runs")
            return advanceRollout()
        default:
            break
        }
        self.rollout = rollout
        return []
    }

    // MARK: - Running

    /// Brings the rollout up to date with the queue and starts what may start (`Rollout.advance`,
    /// the board's sight of each job: its queue, a host's queue being shown afresh, a job this
    /// board confirmed); sends the commands and says a pause. Called after every event.
    mutating func advanceRollout() -> [MonitorEffect] {
        guard var rollout else { return [] }
        // Who runs a job does not change while the rollout advances.
        let hostOfJob = { [rollout] (job: Int) in rollout.host(ofJob: job) }
        let steps = rollout.advance(seeing: { job in rolloutSight(of: job, host: hostOfJob(job)) },
                                    reachable: { staleAge(ofHost: $0) == nil })
        self.rollout = rollout
        return perform(steps)
    }

    /// What the board sees of a rollout's job.
    private func rolloutSight(of job: Int, host: String?) -> RolloutJobSight {
        guard let state = queue.job(job) else {
            return host.map { board?.hostsAwaitingSnapshot.contains($0) == true } == true ? .unknown : .gone
        }
        switch state.phase {
        case .completed: return .completed(failed: state.shownResultCode != .succeeded)
        case .running: return .running
        // Confirmed elsewhere and queued behind another job of its engine: it is started.
        case .queued where !state.descriptor.awaitsConfirmation && !confirmedJobs.contains(job): return .running
        case .queued: return .queued
        }
    }

    /// Sends a rollout's commands (a confirmed job is this board's from then on) and says a pause.
    private mutating func perform(_ steps: [RolloutStep]) -> [MonitorEffect] {
        steps.compactMap { step in
            switch step {
            case .confirm(let job):
                confirmedJobs.insert(job)
                return .command(.confirm(job: job))
            case .decline(let job):
                return .command(.decline(job: job))
            case .paused(let host):
                say("\(host) failed: no new host starts; U continues, X stops (the running ones go on)")
                return nil
            }
        }
    }

    /// `U` while paused: the next hosts start again.
    mutating func continueRollout() -> [MonitorEffect] {
        guard let host = rollout?.resume() else { return [] }
        say("Rollout continues after \(host)'s failure")
        return advanceRollout()
    }

    /// `X`: no further host starts; the held jobs not started are declined (a plan still
    /// being made is declined when it comes), the running ones go on.
    mutating func stopRollout() -> [MonitorEffect] {
        guard let rollout, !rollout.isOver, rollout.answered else {
            say("No rollout runs")
            return []
        }
        let left = rollout.leftCount
        let effects = declineLeftHosts()
        say("Rollout stopped: \(left) \(left == 1 ? "host" : "hosts") not started, declined; \(rollout.runningCount) running go on")
        return effects
    }

    /// Declines every host not started: held and waiting jobs at once, plans still being made
    /// when they come (`advanceRollout`).
    mutating func declineLeftHosts() -> [MonitorEffect] {
        guard rollout != nil else { return [] }
        return perform(rollout!.stop())
    }

    // MARK: - Quitting

    /// `q` or `d` on the board: leaves at once, unless a rollout has hosts left to start; then
    /// asks, saying the running ones go on.
    mutating func requestDetach() -> [MonitorEffect] {
        guard let rollout, !rollout.isOver, rollout.leftCount > 0 else { return [.quit(abortRunning: false)] }
        overlay = .confirm(.quitRollout(left: rollout.leftCount, running: rollout.runningCount))
        return []
    }

    /// Leaving with a rollout under way: the hosts not started are declined, the running ones
    /// go on in their engines.
    mutating func quitRollout() -> [MonitorEffect] {
        declineLeftHosts() + [.quit(abortRunning: false)]
    }

    /// What a held job of the rollout waits for, for its host's row: `in dialog` while the
    /// plans are asked about, `next` once taken (`paused` while a failure holds starts back);
    /// `nil` for a job the rollout does not hold.
    public func rolloutWord(ofJob job: Int) -> String? {
        guard let rollout, let host = rollout.hosts.first(where: { $0.job == job }) else { return nil }
        switch host.phase {
        case .held: return "in dialog"
        case .waiting: return rollout.pausedBy == nil ? "next" : "paused"
        default: return nil
        }
    }

    // MARK: - Header

    /// The header's words for the marks and the rollout: `3 marked`, `rollout 1/3 done · 2 at
    /// a time`, `rollout paused: web3 failed — U continues, X stops`.
    public var rolloutHeaderParts: [String] {
        var parts: [String] = []
        if let count = board?.marked.count, count > 0 { parts.append("\(count) marked") }
        guard let rollout, rollout.answered, !rollout.isOver else { return parts }
        if let host = rollout.pausedBy {
            parts.append("rollout paused: \(host) failed — U continues, X stops")
        } else {
            let taken = rollout.hosts.count { host in
                switch host.phase {
                case .declined, .notQueued: return false
                default: return host.included || !host.isLeft
                }
            }
            parts.append("rollout \(rollout.doneCount)/\(taken) done · \(rollout.parallel) at a time")
        }
        return parts
    }
}
