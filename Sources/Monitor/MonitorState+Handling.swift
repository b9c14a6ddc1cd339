#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import TerminalUI

extension MonitorState {
    /// Applies one event and returns the work for the runtime: engine commands, `.quit`, and
    /// `.redraw` when the screen no longer matches the state. Never traps on unexpected input:
    /// events about unknown jobs and keys with no meaning in the current mode are ignored.
    public mutating func handle(_ event: MonitorEvent) -> [MonitorEffect] {
        switch event {
        case .engine(let engineEvent):
            return handle(.engineEvents([engineEvent]))
        case .engineEvents(let events):
            var effects: [MonitorEffect] = []
            var movedLists = false
            let selectedBefore = selection
            for engineEvent in events {
                effects += handleEngine(engineEvent)
                movedLists = movedLists || engineEvent.kind.movesLists
            }
            followWork()
            syncBoardSelection()
            effects += advanceRollout() + advanceRefresh()
            if movedLists || selection != selectedBefore { fixScrolling() }
            effects.append(.redraw)
            return effects
        case .key(let key):
            if status?.staysUntilKey == true { status = nil }
            var effects = handleKey(key)
            fixScrolling()
            if !effects.contains(.redraw) { effects.append(.redraw) }
            return effects
        case .tick(let time):
            return handleTick(time)
        case .resize(let newWidth, let newHeight):
            width = max(0, newWidth)
            height = max(0, newHeight)
            fixScrolling()
            return [.redraw]
        case .signal(let signal):
            return handleSignal(signal) + [.redraw]
        case .commandResult(let text):
            say(text)
            return [.redraw]
        case .returnedFromShell(let text):
            status = StatusMessage(text: text, expiresAt: now, staysUntilKey: true)
            return [.redraw]
        case .historicalDurations(let durations):
            estimates.historicalDurations = durations
            return [.redraw]
        case .historyLoaded(let rows):
            return historyLoaded(.rows(rows))
        case .historyUnavailable(let reason):
            return historyLoaded(.unavailable(reason))
        case .jobRunsLoaded(let runs):
            return jobRunsLoaded(.rows(runs))
        case .jobRunsUnavailable(let reason):
            return jobRunsLoaded(.unavailable(reason))
        case .shellRunsLoaded(let host, let runs):
            return shellRunsLoaded(runs, host: host)
        case .queueReplaced(let reason):
            queue = QueueModel(outputCapacity: queue.outputCapacity)
            // Until the next key: the engine closes a monitor that was stopped (Ctrl-Z, a
            // terminal left suspended), so the operator reads why the queue was shown afresh
            // when they come back, not five seconds after it happened.
            status = StatusMessage(text: reason, expiresAt: now, staysUntilKey: true)
            return [.redraw]
        case .armed(let runs):
            return armedRunsChanged(runs, host: nil)
        case .host(let hostEvent):
            return handleHost(hostEvent) + advanceRollout() + advanceRefresh()
        }
    }

    // MARK: - Engine events

    /// Applies one engine event; the caller fixes scrolling (when `movesLists`) and redraws.
    mutating func handleEngine(_ event: EngineEvent) -> [MonitorEffect] {
        if event.time > now { now = event.time }
        var effects: [MonitorEffect] = []
        // Where the selected job was, so a clean-up can select its neighbour.
        let selectedRow = event.kind.isCleanUp && board == nil ? visibleJobs.firstIndex { $0.id == selectedJobID } : nil
        var previous: UpdateInstallationResult?
        if case .updateCompleted(let completion) = event.kind, let state = queue.job(completion.job),
           state.updates.indices.contains(completion.index) {
            previous = state.updates[completion.index].result
        }
        queue.apply(event)
        updateTally(for: event.kind, previous: previous)
        switch event.kind {
        case .jobQueued(let descriptor):
            startingNote = nil
            if let job = queue.job(descriptor.id) { filter.add(job) }
            // On the board a host's row may be selected with no job: it stays selected.
            if selectedJob == nil || descriptor.id == followedJob, board?.selectedHost == nil, filter.shows(job: descriptor.id) {
                select(job: descriptor.id)
            }
            // A rollout's plan is asked about in its own dialog, with the other hosts'.
            if descriptor.awaitsConfirmation, queue.job(descriptor.id)?.phase == .queued, !claimRolloutJob(descriptor) {
                askToStart(descriptor)
            }
        case .updateStarted(let start):
            // An update added to its job (rule 28) is matched against the filter like the others.
            if start.added != nil, let job = queue.job(start.job) { filter.add(job) }
            estimates.updateStarted(start.updateKey, at: event.time)
            // The cheap test first: most starts are of jobs not selected.
            if selection.follows(job: start.job), let state = queue.job(start.job),
               visibleUpdates(of: state).row(of: start.index) != nil {
                selection.updateStarted(job: start.job, index: start.index)
            }
        case .progress(let progress):
            if let percent = progress.updatePercent {
                recordProgress(percent, key: progress.updateKey, at: event.time)
            }
            // The job's current update (a driver's, such as the package dpkg is on) is followed
            // like a start.
            if selection.follows(job: progress.job), progress.index != selectedUpdateIndex, let state = queue.job(progress.job),
               state.updates.indices.contains(progress.index), state.updates[progress.index].result.resultCode == .inProgress,
               visibleUpdates(of: state).row(of: progress.index) != nil {
                selection.updateStarted(job: progress.job, index: progress.index)
            }
        case .output(let output):
            keepScrolledViewsStill(job: output.job, index: output.index)
        case .updateCompleted(let completion):
            estimates.updateEnded(completion.updateKey)
        case .jobCompleted(let completion):
            estimates.jobEnded(completion.job)
            if quitPhase != nil, isIdle { effects.append(.quit(abortRunning: true)) }
        case .jobCleanedUp(let cleanUp):
            pendingCleanUps.remove(cleanUp.job)
            filter.remove(job: cleanUp.job)
            if case .fullOutput(cleanUp.job, _, _)? = overlay { overlay = nil }
            if case .jobDetail(cleanUp.job, _)? = overlay { overlay = nil }
            if selectedJobID == cleanUp.job, board != nil {
                keepBoardSelection(afterLeaving: cleanUp.job)
            } else if selectedJobID == cleanUp.job {
                let remaining = visibleJobs
                if remaining.isEmpty {
                    selection.clear()
                } else {
                    select(job: remaining[min(selectedRow ?? 0, remaining.count - 1)].id)
                }
            }
        case .jobConfirmed(let confirmation):
            closeStartQuestion(of: confirmation.job)
        case .jobStarted(let start):
            closeStartQuestion(of: start.job)
        case .jobAbortRequested:
            break
        }
        if case .jobCompleted(let completion) = event.kind {
            closeStartQuestion(of: completion.job)
            dropStatusOfEndedJobs()
        }
        if case .jobCleanedUp(let cleanUp) = event.kind {
            closeStartQuestion(of: cleanUp.job)
            dropStatusOfEndedJobs()
        }
        return effects
    }

    /// Job `job` was confirmed, started or ended (confirmed elsewhere, or a monitor attached
    /// late and was replayed its `job.queued`): its question is moot.
    private mutating func closeStartQuestion(of job: Int) {
        confirmedJobs.remove(job)
        if case .confirm(.startJob(job, _, _, _))? = overlay { overlay = nil }
    }

    /// Shows the plan's job and asks whether to start it; a question already open (or the
    /// full-output view) is replaced, since nothing runs until this one is answered.
    private mutating func askToStart(_ descriptor: JobDescriptor) {
        select(job: descriptor.id)
        // On the board the question names the host whose engine would run it.
        let name = host(ofJob: descriptor.id).map { "\(descriptor.name) on \($0)" } ?? descriptor.name
        overlay = .confirm(.startJob(job: descriptor.id, name: name, updates: descriptor.updates.count))
    }

    /// Keeps `tallies` in step with the queue: counted afresh when a job arrives or completes
    /// (its results may all change then), adjusted for single updates otherwise.
    private mutating func updateTally(for kind: EngineEvent.Kind, previous: UpdateInstallationResult?) {
        switch kind {
        case .jobQueued(let descriptor):
            tallies[descriptor.id] = queue.job(descriptor.id).map(JobTally.init)
        case .jobCompleted(let completion):
            tallies[completion.job] = queue.job(completion.job).map(JobTally.init)
        case .updateStarted(let start):
            tallies[start.job]?.started(start.index, added: start.added != nil)
        case .updateCompleted(let completion):
            tallies[completion.job]?.completed(completion.index, result: completion.result, previous: previous)
        case .jobCleanedUp(let cleanUp):
            tallies[cleanUp.job] = nil
        case .jobConfirmed, .jobStarted, .progress, .output, .jobAbortRequested:
            break
        }
    }

    /// A new line pushes older ones up: a view scrolled back keeps showing the same lines, until
    /// they leave the bounded tail and it stops at the oldest line kept.
    private mutating func keepScrolledViewsStill(job: Int, index: Int) {
        guard outputScroll > 0 || overlay != nil, let state = queue.job(job), state.updates.indices.contains(index) else { return }
        let lines = state.updates[index].output.lines.count
        if job == selectedJobID, index == selectedUpdateIndex {
            selection.outputGrew(lines: lines, page: pageSize(of: .output))
        }
        if case .fullOutput(job, index, let scroll)? = overlay, scroll > 0 {
            let maximum = max(0, lines - MonitorLayout.innerRows(layout.body))
            overlay = .fullOutput(job: job, index: index, scroll: min(scroll + 1, maximum))
        }
    }

    // MARK: - Time

    private mutating func handleTick(_ time: Date) -> [MonitorEffect] {
        if time > now { now = time }
        lastTick = now
        phase &+= 1
        // What counts by itself on screen (ticked for, and drawn only if told so).
        var changed = quitPhase != nil || queue.jobs.contains { $0.phase == .running } || boardCountsSeconds
        if let status, status.expiresAt <= now {
            self.status = nil
            changed = true
        }
        return changed ? [.redraw] : []
    }

    // MARK: - Signals and quitting

    private mutating func handleSignal(_ signal: TerminationSignal) -> [MonitorEffect] {
        // Attached, the jobs belong to the engine: any signal just detaches; a rollout's hosts
        // not started are declined, as quitting does.
        if isAttached { return declineLeftHosts() + [.quit(abortRunning: false)] }
        switch signal {
        case .interrupt:
            if quitPhase != nil { return forceQuit() }
            if case .confirm(.quit)? = overlay { return confirmQuit() }
            return requestQuit()
        case .terminate, .hangup:
            // Sent by no one who can answer a question (a service manager, a closed terminal):
            // abort gracefully and quit; a second one kills.
            if quitPhase != nil { return forceQuit() }
            return confirmQuit()
        }
    }

    /// `q`: quits at once when no job is queued or running, otherwise asks first.
    mutating func requestQuit() -> [MonitorEffect] {
        let count = unfinishedJobCount
        guard count > 0 else { return [.quit(abortRunning: false)] }
        overlay = .confirm(.quit(count: count))
        return []
    }

    /// Aborts every job and waits for them before quitting.
    mutating func confirmQuit() -> [MonitorEffect] {
        overlay = nil
        let count = unfinishedJobCount
        guard count > 0 else { return [.quit(abortRunning: false)] }
        quitPhase = .waitingForAborts
        say("Aborting \(count) \(count == 1 ? "job" : "jobs") before quitting; q again kills them now")
        return [.command(.abortAll(force: false))]
    }

    /// `q` while waiting to quit: kill instead of waiting for graceful aborts.
    mutating func forceQuit() -> [MonitorEffect] {
        guard quitPhase == .waitingForAborts else { return [] }
        quitPhase = .killing
        say("Killing the remaining jobs' processes; quitting when they have ended")
        return [.command(.abortAll(force: true))]
    }
}

extension EngineEvent.Kind {
    /// Only these change what the lists hold or select; the rest (the flood of progress and
    /// output) leaves the scroll positions valid.
    var movesLists: Bool {
        switch self {
        case .jobQueued, .jobCleanedUp, .updateStarted, .jobCompleted: return true
        default: return false
        }
    }

    var isCleanUp: Bool {
        if case .jobCleanedUp = self { return true }
        return false
    }
}
