import Foundation
import InstallEngine
import Synchronization

/// Turns engine events into history rows (rules 19 and 20).
///
/// Feed it every event of the engine, in order, from the engine's event handler. On
/// `updateStarted` it inserts a row marked running before returning, so the row exists before
/// the child runs and a crash leaves evidence for `recoverInterruptedEntries()`. It keeps the
/// last 200 output lines of each running update in memory and writes them when the update
/// completes, settling the row with its result. An update that never ran (aborted before its
/// turn) gets one finished row at its `updateCompleted`. Each start and each end is one small
/// transaction; progress and output events never touch the database.
///
/// Events of a job whose `jobQueued` it did not see are ignored: without the descriptor it
/// would have no title, revision or job name to record. Safe to call from several threads.
public final class HistoryRecorder: Sendable {
    /// The `clientApplicationID` recorded unless the caller names another.
    public static let defaultClientApplicationID = "installtop"

    /// Where the rows go.
    public let store: HistoryStore
    /// Recorded in every row (WUA `ClientApplicationID`).
    public let clientApplicationID: String
    private let writer: ProcessIdentity
    private let jobs = Mutex<[Int: JobMemory]>([:])

    /// What is kept about a job between its `jobQueued` and its `jobCompleted`.
    private struct JobMemory: Sendable {
        var descriptor: JobDescriptor
        /// Keyed by update index.
        var running: [Int: RunningUpdate] = [:]
    }

    private struct RunningUpdate: Sendable {
        /// `id` is `nil` when the running row could not be inserted.
        var entry: HistoryEntry
        var tail = OutputTail()
    }

    /// Records into `store`, naming this process as the writer of every row.
    public init(store: HistoryStore, clientApplicationID: String = defaultClientApplicationID) {
        self.store = store
        self.clientApplicationID = clientApplicationID
        self.writer = .current()
    }

    // MARK: - Events

    /// Takes one engine event into account.
    ///
    /// Throws when the database write of an update's start or end fails. The event is still
    /// taken into account: if the running row could not be written, the update's completion
    /// inserts its finished row instead, so a later success loses nothing.
    public func record(_ event: EngineEvent) throws(HistoryError) {
        switch event.kind {
        case .jobQueued(let descriptor):
            jobs.withLock { $0[descriptor.id] = JobMemory(descriptor: descriptor) }
        case .updateStarted(let start):
            try recordStart(job: start.job, index: start.index, updateID: start.updateID, at: event.time)
        case .output(let output):
            jobs.withLock { $0[output.job]?.running[output.index]?.tail.append(output.line) }
        case .updateCompleted(let completion):
            try recordEnd(job: completion.job, index: completion.index, updateID: completion.updateID, result: completion.result, at: event.time)
        case .jobCompleted, .jobCleanedUp:
            jobs.withLock { _ = $0.removeValue(forKey: event.job) }
        case .jobStarted, .progress, .jobAbortRequested:
            break
        }
    }

    // MARK: - Start and end of an update

    private func recordStart(job: Int, index: Int, updateID: String, at time: Date) throws(HistoryError) {
        let entry = jobs.withLock { jobs -> HistoryEntry? in
            guard let descriptor = jobs[job]?.descriptor, var entry = newEntry(descriptor, index, updateID) else {
                return nil
            }
            entry.resultCode = .inProgress
            entry.startedAt = time
            entry.isRunning = true
            jobs[job]?.running[index] = RunningUpdate(entry: entry)
            return entry
        }
        guard let entry else { return }
        // The database write happens outside the lock so output of other jobs is not held up.
        let inserted = try store.insert(entry)
        jobs.withLock { $0[job]?.running[index]?.entry.id = inserted.id }
    }

    private func recordEnd(
        job: Int, index: Int, updateID: String, result: UpdateInstallationResult, at time: Date
    ) throws(HistoryError) {
        let entry = jobs.withLock { jobs -> HistoryEntry? in
            guard let memory = jobs[job] else { return nil }
            let running = jobs[job]?.running.removeValue(forKey: index)
            guard var entry = running?.entry ?? newEntry(memory.descriptor, index, updateID) else { return nil }
            entry.resultCode = result.resultCode
            entry.hResult = result.hResult
            entry.unmappedResultCode = result.unmappedResultCode
            entry.reason = result.reason
            entry.startedAt = result.startedAt ?? entry.startedAt
            entry.endedAt = result.endedAt ?? time
            entry.durationMs = entry.startedAt.flatMap { start in
                entry.endedAt.map { Int64(($0.timeIntervalSince(start) * 1000).rounded()) }
            }
            entry.outputTail = running?.tail.text ?? ""
            entry.isRunning = false
            return entry
        }
        guard let entry else { return }
        _ = try store.save(entry)
    }

    /// A row for update `index` of the job, not started yet; `nil` for an index outside it.
    private func newEntry(_ descriptor: JobDescriptor, _ index: Int, _ updateID: String) -> HistoryEntry? {
        guard descriptor.updates.indices.contains(index) else { return nil }
        let update = descriptor.updates[index]
        return HistoryEntry(
            operation: descriptor.operation,
            resultCode: .notStarted,
            startedAt: nil,
            endedAt: nil,
            updateID: updateID,
            revision: update.revision,
            title: update.title,
            packageAction: update.package?.action,
            oldVersion: update.package?.oldVersion,
            newVersion: update.package?.newVersion,
            jobName: descriptor.name,
            clientApplicationID: clientApplicationID,
            writer: writer)
    }
}
