#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DequeModule

/// The state of a job queue as seen by its consumers, built only from `EngineEvent`s.
///
/// The engine keeps one (to replay to late subscribers), and so do the monitor and daemon
/// clients: one reducer, so every view of the queue agrees. Events about unknown jobs are
/// ignored, which makes it safe to start from any snapshot.
public struct QueueModel: Sendable, Hashable {
    /// The jobs in queue order (by job number).
    public private(set) var jobs: [JobState] = []
    private var positions: [Int: Int] = [:]
    /// `JobState.finishedCount` per job number, kept as results change: counting on each
    /// `updateCompleted` made a job of n updates cost O(n²) to follow.
    private var finishedCounts: [Int: Int] = [:]
    /// Lines of output kept per update.
    public let outputCapacity: Int

    public init(outputCapacity: Int = 1000) {
        self.outputCapacity = outputCapacity
    }

    /// The job with number `id`, if it is in the queue.
    public func job(_ id: Int) -> JobState? {
        positions[id].map { jobs[$0] }
    }

    // MARK: - Reducing

    /// Applies one event.
    public mutating func apply(_ event: EngineEvent) {
        switch event.kind {
        case .jobQueued(let descriptor):
            guard positions[descriptor.id] == nil else { return }
            let position = jobs.firstIndex { $0.id > descriptor.id } ?? jobs.count
            let job = JobState(descriptor: descriptor, queuedAt: event.time, outputCapacity: outputCapacity)
            finishedCounts[descriptor.id] = job.finishedCount
            jobs.insert(job, at: position)
            reindex(from: position)
        case .jobConfirmed(let confirmation):
            modify(confirmation.job) { $0.descriptor.awaitsConfirmation = false }
        case .jobStarted(let start):
            modify(start.job) { job in
                job.phase = .running
                job.startedAt = event.time
            }
        case .updateStarted(let start):
            if let added = start.added {
                let capacity = outputCapacity
                modify(start.job) { job in
                    guard job.updates.count == start.index else { return }
                    job.descriptor.updates.append(added)
                    job.updates.append(UpdateState(update: added, outputCapacity: capacity))
                }
            }
            modify(start.job, start.index) { update in
                update.result = UpdateInstallationResult(resultCode: .inProgress, startedAt: event.time)
                update.startedAt = event.time
                update.percent = nil
                update.message = nil
            }
            modify(start.job) { $0.phase = .running }
        case .progress(let progress):
            modify(progress.job, progress.index) { update in
                update.percent = progress.updatePercent
                if let message = progress.message { update.message = message }
            }
            modify(progress.job) { job in
                // The engine's figures never go down, but a consumer that fell behind gets each
                // update's newest progress in the place of its first (`SubscriberOutbox`): one
                // update's figure for the job may come after a higher one of another.
                job.jobPercent = job.jobPercent.advanced(to: progress.jobPercent)
                job.jobMessage = progress.jobMessage
            }
        case .output(let output):
            modify(output.job, output.index) { $0.output.append(OutputLine(stream: output.stream, text: output.line)) }
        case .updateCompleted(let completion):
            modify(completion.job, completion.index) { update in
                update.result = completion.result
                // The result says when it started: a replay can leave out `updateStarted`.
                if let startedAt = completion.result.startedAt { update.startedAt = startedAt }
                if completion.result.resultCode == .succeeded || completion.result.resultCode == .succeededWithErrors {
                    update.percent = 100
                }
            }
            let finished = finishedCounts[completion.job] ?? 0
            // The event carries no figure for the job: until its next progress, its bar shows the
            // finished share when that is higher (rule 6 without the running updates).
            modify(completion.job) { job in
                job.jobPercent = job.jobPercent.advanced(to: 100 * Double(finished) / Double(max(1, job.updates.count)))
            }
        case .jobAbortRequested(let request):
            modify(request.job) { job in
                job.abortRequested = true
                job.abortForced = job.abortForced || request.force
            }
        case .jobCompleted(let completion):
            modify(completion.job) { job in
                job.phase = .completed
                job.result = completion.result
                job.completedAt = event.time
                job.jobPercent = .complete
                for index in job.updates.indices where index < completion.result.updateResults.count {
                    job.updates[index].result = completion.result.updateResults[index]
                }
            }
            if let completed = self.job(completion.job) { finishedCounts[completion.job] = completed.finishedCount }
        case .jobCleanedUp(let cleanUp):
            guard let position = positions[cleanUp.job] else { return }
            jobs.remove(at: position)
            positions[cleanUp.job] = nil
            finishedCounts[cleanUp.job] = nil
            reindex(from: position)
        }
    }

    // MARK: - Replaying

    /// Events that rebuild this model from an empty one, for a subscriber that arrives late:
    /// each job's `jobQueued`, then its started/progress/output/completed history as it stands.
    public func replayEvents(time: Date = Date()) -> [EngineEvent] {
        var events: [EngineEvent] = []
        for job in jobs {
            let id = job.id
            events.append(EngineEvent(time: job.queuedAt, kind: .jobQueued(job.descriptor)))
            if let startedAt = job.startedAt {
                events.append(EngineEvent(time: startedAt, kind: .jobStarted(job: id)))
            }
            if job.abortRequested {
                events.append(EngineEvent(time: time, kind: .jobAbortRequested(job: id, force: false)))
                if job.abortForced {
                    events.append(EngineEvent(time: time, kind: .jobAbortRequested(job: id, force: true)))
                }
            }
            for (index, update) in job.updates.enumerated() {
                let updateID = update.update.id
                // A finished update's start is in its result: one event fewer per update, a third
                // of a finished queue's replay.
                let startIsInResult = update.result.resultCode.isFinal && update.result.startedAt != nil
                if let startedAt = update.startedAt, !startIsInResult {
                    events.append(EngineEvent(time: startedAt, kind: .updateStarted(job: id, index: index, updateID: updateID)))
                }
                for line in update.output.lines {
                    events.append(EngineEvent(time: time, kind: .output(job: id, index: index, stream: line.stream, line: line.text)))
                }
                // Finished updates too, for their last status text and where a failed one
                // stopped; a success's 100 % comes with its completion.
                let succeeded = update.result.resultCode == .succeeded || update.result.resultCode == .succeededWithErrors
                if update.message != nil || (update.percent != nil && !succeeded) {
                    events.append(EngineEvent(time: time, kind: .progress(
                        job: id, index: index, updatePercent: update.percent, jobPercent: job.percent, message: update.message,
                        jobMessage: job.jobMessage)))
                }
                if update.result.resultCode.isFinal {
                    events.append(EngineEvent(time: update.result.endedAt ?? time, kind: .updateCompleted(
                        job: id, index: index, updateID: updateID, result: update.result)))
                }
            }
            // The job's status text, on an update as it stands (none of them may have said
            // anything yet: apt's downloads come before any package runs).
            if let jobMessage = job.jobMessage, !job.updates.isEmpty {
                let index = job.runningIndex ?? 0
                events.append(EngineEvent(time: time, kind: .progress(
                    job: id, index: index, updatePercent: job.updates[index].percent, jobPercent: job.percent,
                    message: job.updates[index].message, jobMessage: jobMessage)))
            }
            if let result = job.result {
                events.append(EngineEvent(time: job.completedAt ?? time, kind: .jobCompleted(job: id, result: result)))
            }
        }
        return events
    }

    // MARK: - Private

    private mutating func modify(_ id: Int, _ body: (inout JobState) -> Void) {
        guard let position = positions[id] else { return }
        body(&jobs[position])
    }

    private mutating func modify(_ id: Int, _ index: Int, _ body: (inout UpdateState) -> Void) {
        guard let position = positions[id], jobs[position].updates.indices.contains(index) else { return }
        let wasFinal = jobs[position].updates[index].result.resultCode.isFinal
        body(&jobs[position].updates[index])
        let isFinal = jobs[position].updates[index].result.resultCode.isFinal
        if wasFinal != isFinal { finishedCounts[id, default: 0] += isFinal ? 1 : -1 }
    }

    private mutating func reindex(from position: Int) {
        for index in position..<jobs.count { positions[jobs[index].id] = index }
    }
}
