#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import InstallEngine
import Synchronization

/// Turns engine events into history rows (rules 19 and 20).
///
/// Feed it every event of the engine, in order, from the engine's event handler. On
/// `updateStarted` it inserts a row marked running before returning, so the row exists before
/// the child runs and a crash leaves evidence for `recoverInterruptedEntries()`. It keeps the
/// last 200 output lines of each running update in memory. Progress and output events never
/// touch the database.
///
/// An update's end settles its row (result, times, output tail) *behind*: the settled row is
/// written in the transaction of the next update's start, or at most `settleDelay` later on
/// a thread of its own, or when its job completes or `flush()` is called, whichever comes
/// first. A job of short updates so costs one transaction per update instead of two, on the
/// path between one child and the next. What it trades: a process killed within that delay
/// after an update ended leaves the row running, and the next start records it as
/// `interrupted`, which is what a kill a moment earlier (between the child's exit and any
/// write) has always given; nothing already written is ever changed or lost. An update that
/// never ran (aborted before its turn) gets one finished row the same way.
///
/// Output a driver reports about an update after its result (apt retrying a failed configure
/// at its end, a repair after the last package) is kept too, up to the tail's bounds, and
/// appended to that update's row when its job completes.
///
/// Events of a job whose `jobQueued` it did not see are ignored: without the descriptor it
/// would have no title, revision or job name to record. Another installtop engine's apt job
/// that this engine shows (`ObservedInitiator.installtopRun`) is not recorded at all: the
/// engine that runs it records it (one transaction, one record). Safe to call from several threads.
public final class HistoryRecorder: Sendable {
    /// The `clientApplicationID` recorded unless the caller names another.
    public static let defaultClientApplicationID = "installtop"

    /// Where the rows go.
    public let store: HistoryStore
    /// Recorded in every row (WUA `ClientApplicationID`).
    public let clientApplicationID: String
    /// The longest an ended update's row waits for the next start to be written with it.
    public let settleDelay: Duration
    /// How long a write that failed on the recorder's own thread waits to be tried again.
    static let retryDelay: Duration = .seconds(1)
    private let writer: ProcessIdentity
    private let jobs = Mutex<[Int: JobMemory]>([:])
    private let pending = Mutex(PendingSettlements())
    private let onDeferredError: (@Sendable (HistoryError) -> Void)?
    /// The run slot a job's keeper shares (an apt job that keeps versions for undo); `nil` for
    /// a job whose run the recorder reserves alone.
    private let sharedRunSlot: @Sendable (JobDescriptor) -> JobRunSlot?

    /// Rows of ended updates not written yet.
    private struct PendingSettlements: Sendable {
        var rows: [HistoryEntry] = []
        /// When the oldest of `rows` ended.
        var oldest: ContinuousClock.Instant?
        /// A look at `rows` is scheduled.
        var isCheckScheduled = false
    }

    /// What is kept about a job between its `jobQueued` and its `jobCompleted`.
    private struct JobMemory: Sendable {
        var descriptor: JobDescriptor
        /// The job's run (`jobRun` table): reserved at its first row, ended at its completion.
        var run: JobRunSlot
        /// Keyed by update index.
        var running: [Int: RunningUpdate] = [:]
        /// The row id of each update that ended, by index: output after its result goes there.
        var ended: [Int: Int64] = [:]
        /// Output of ended updates since their end, by index, for `ended`'s rows.
        var late: [Int: HistoryOutputTail] = [:]

        /// Takes a line of update `index`'s output: its running tail's, or, once it ended, a
        /// late one; a line of an update that never started nor ended is dropped.
        mutating func take(_ line: String, of index: Int) {
            if running[index] != nil {
                running[index]?.tail.append(line)
            } else if ended[index] != nil {
                late[index, default: HistoryOutputTail()].append(line)
            }
        }
    }

    private struct RunningUpdate: Sendable {
        /// `id` is `nil` when the running row could not be inserted.
        var entry: HistoryEntry
        var tail = HistoryOutputTail()
    }

    /// Records into `store`, naming this process as the writer of every row.
    /// - Parameters:
    ///   - settleDelay: how long an ended update's row may wait to be written together with
    ///     the next start (see the type's description); zero writes it at once, alone.
    ///   - onDeferredError: told when a write made `settleDelay` after an end fails (no caller
    ///     is there to catch it). The rows stay pending and are written with the next start,
    ///     flush or job completion, which throw if the database still refuses them.
    ///   - sharedRunSlot: the run slot of a job whose keeper reserves its run (rule 33), asked
    ///     once at its `jobQueued`; `nil` lets the recorder reserve the run itself.
    public init(
        store: HistoryStore, clientApplicationID: String = defaultClientApplicationID,
        settleDelay: Duration = .milliseconds(5), onDeferredError: (@Sendable (HistoryError) -> Void)? = nil,
        sharedRunSlot: @escaping @Sendable (JobDescriptor) -> JobRunSlot? = { _ in nil }
    ) {
        self.sharedRunSlot = sharedRunSlot
        self.store = store
        self.clientApplicationID = clientApplicationID
        self.settleDelay = settleDelay
        self.onDeferredError = onDeferredError
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
            // Another installtop engine's apt job, watched through the hooks: that engine
            // records it; a second record would make one transaction two runs.
            guard descriptor.observedBy?.installtopRun == nil else { return }
            let run = sharedRunSlot(descriptor) ?? JobRunSlot()
            jobs.withLock { $0[descriptor.id] = JobMemory(descriptor: descriptor, run: run) }
            // A watched transaction is recorded from the moment it is seen: an engine killed
            // before dpkg's first line still leaves its run, which the next one settles.
            if descriptor.observedBy != nil { _ = runID(of: descriptor.id, at: event.time) }
        case .updateStarted(let start):
            if let added = start.added {
                jobs.withLock { jobs in
                    if jobs[start.job]?.descriptor.updates.count == start.index { jobs[start.job]?.descriptor.updates.append(added) }
                }
            }
            try recordStart(job: start.job, index: start.index, updateID: start.updateID, at: event.time)
        case .output(let output):
            jobs.withLock { $0[output.job]?.take(output.line, of: output.index) }
        case .updateCompleted(let completion):
            try recordEnd(job: completion.job, index: completion.index, updateID: completion.updateID, result: completion.result, at: event.time)
        case .jobCompleted(let completion):
            let runID = runID(of: completion.job, at: event.time)
            let memory = jobs.withLock { $0.removeValue(forKey: event.job) }
            try flush()
            for (index, tail) in memory?.late ?? [:] {
                guard let id = memory?.ended[index] else { continue }
                try store.appendOutput(Array(tail.lines), toRow: id)
            }
            if let runID, let memory {
                try store.finishJobRun(runID, name: memory.descriptor.name, resultCode: completion.result.resultCode, endedAt: event.time,
                                       undoOf: memory.descriptor.undoOf.map(Int64.init))
            }
        case .jobCleanedUp:
            // A job declined before it ran (never completed) has no run: nothing started it.
            let memory = jobs.withLock { $0.removeValue(forKey: event.job) }
            try flush()
            for (index, tail) in memory?.late ?? [:] {
                guard let id = memory?.ended[index] else { continue }
                try store.appendOutput(Array(tail.lines), toRow: id)
            }
        case .jobConfirmed, .jobStarted, .progress, .jobAbortRequested:
            break
        }
    }

    // MARK: - Start and end of an update

    private func recordStart(job: Int, index: Int, updateID: String, at time: Date) throws(HistoryError) {
        let runID = runID(of: job, at: time)
        let entry = jobs.withLock { jobs -> HistoryEntry? in
            guard let descriptor = jobs[job]?.descriptor, var entry = newEntry(descriptor, index, updateID, run: runID) else {
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
        let ids = try writePending(inserting: [entry])
        jobs.withLock { $0[job]?.running[index]?.entry.id = ids.first }
    }

    private func recordEnd(
        job: Int, index: Int, updateID: String, result: UpdateInstallationResult, at time: Date
    ) throws(HistoryError) {
        let runID = runID(of: job, at: time)
        let entry = jobs.withLock { jobs -> HistoryEntry? in
            guard let memory = jobs[job] else { return nil }
            let running = jobs[job]?.running.removeValue(forKey: index)
            guard var entry = running?.entry ?? newEntry(memory.descriptor, index, updateID, run: runID) else { return nil }
            entry.resultCode = result.resultCode
            entry.hResult = result.hResult
            entry.unmappedResultCode = result.unmappedResultCode
            // A marked result (skipped, rescued, ignored, ran elsewhere, unknown) counts as
            // succeeded: its word leads the reason, so a row tells it from a plain success.
            entry.reason = result.mark.map { mark in result.reason.map { "\(mark.word): \($0)" } ?? mark.word } ?? result.reason
            entry.startedAt = result.startedAt ?? entry.startedAt
            entry.endedAt = result.endedAt ?? time
            entry.durationMs = entry.startedAt.flatMap { start in
                entry.endedAt.map { Int64(($0.timeIntervalSince(start) * 1000).rounded()) }
            }
            entry.outputTail = running?.tail.text ?? ""
            entry.isRunning = false
            // A row whose start could not be written has no id to append to later.
            if let id = entry.id { jobs[job]?.ended[index] = id }
            return entry
        }
        guard let entry else { return }
        guard settleDelay > .zero else {
            try store.save(entry)
            return
        }
        let now = ContinuousClock.now
        pending.withLock { pending in
            pending.rows.append(entry)
            if pending.oldest == nil { pending.oldest = now }
        }
        if claimCheck() { scheduleCheck(after: settleDelay) }
    }

    /// Writes the pending rows once the oldest is `settleDelay` old; rows a start wrote
    /// meanwhile are not waited for, and younger ones get another look when they are due.
    /// So a job whose updates follow each other never sees a write of this thread competing
    /// with its starts.
    private func scheduleCheck(after delay: Duration) {
        let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            let now = ContinuousClock.now
            let wait = pending.withLock { pending -> Duration? in
                guard let oldest = pending.oldest else {
                    pending.isCheckScheduled = false
                    return nil
                }
                let due = oldest + settleDelay
                if due > now { return now.duration(to: due) }
                pending.isCheckScheduled = false
                return .zero
            }
            switch wait {
            case nil: return
            case .zero?:
                do throws(HistoryError) {
                    try flush()
                } catch {
                    onDeferredError?(error)
                    // The rows are pending again; try again, but not in a loop against a
                    // database that refuses everything.
                    if claimCheck() { scheduleCheck(after: max(settleDelay, Self.retryDelay)) }
                }
            case let remaining?:
                scheduleCheck(after: remaining)
            }
        }
    }

    // MARK: - Rows of ended updates

    /// Writes the rows of ended updates that are still pending, in one transaction. Called by
    /// every job completion; call it before relying on the database from elsewhere.
    /// On failure the rows stay pending for the next attempt.
    public func flush() throws(HistoryError) {
        try writePending(inserting: [])
    }

    /// Writes the pending rows and `inserted` in one transaction; returns the inserted rows'
    /// ids. On failure the pending rows are pending again, before any that came meanwhile.
    @discardableResult
    private func writePending(inserting inserted: [HistoryEntry]) throws(HistoryError) -> [Int64] {
        let settled = takePending()
        do {
            return try store.write(HistoryStore.RowWrites(settled: settled, inserted: inserted))
        } catch {
            putBack(settled)
            throw error
        }
    }

    /// Whether the caller is the one to schedule the next look at the pending rows (none is
    /// scheduled yet); from then on one is.
    private func claimCheck() -> Bool {
        pending.withLock { pending in
            defer { pending.isCheckScheduled = true }
            return !pending.isCheckScheduled
        }
    }

    private func takePending() -> [HistoryEntry] {
        pending.withLock { pending in
            defer {
                pending.rows = []
                pending.oldest = nil
            }
            return pending.rows
        }
    }

    /// Returns rows whose write failed to the front of the pending ones.
    private func putBack(_ rows: [HistoryEntry]) {
        guard !rows.isEmpty else { return }
        let now = ContinuousClock.now
        pending.withLock { pending in
            pending.rows.insert(contentsOf: rows, at: 0)
            if pending.oldest == nil { pending.oldest = now }
        }
    }

    /// The run id of `job`, reserved now (begun at `time`) when neither its keeper nor an
    /// earlier row did; `nil` for a job not queued here, or when the database refused it (its
    /// rows are still written, without a run).
    private func runID(of job: Int, at time: Date) -> Int64? {
        guard let (descriptor, slot) = jobs.withLock({ jobs in jobs[job].map { ($0.descriptor, $0.run) } }) else { return nil }
        // Asked at every update's start and end: what the run records is made only when it is
        // reserved, once.
        return try? slot.id { () throws(HistoryError) -> Int64 in
            let plan = descriptor.updates.compactMap(\.package)
            // A package job says who records it, its plan and its dpkg (an observed one knows its
            // dpkg; an apt job's keeper tells its own through the slot).
            let origin = slot.origin ?? (plan.isEmpty && descriptor.observedBy == nil ? nil : JobRunOrigin(
                writer: writer, plan: plan, administrativeDirectory: descriptor.observedBy?.administrativeDirectory,
                dpkgLog: descriptor.observedBy?.dpkgLog))
            return try store.reserveJobRun(kind: Self.kind(of: descriptor), name: descriptor.name, operation: descriptor.operation,
                                           startedAt: time, observed: descriptor.observedBy != nil, origin: origin)
        }
    }

    /// The job's kind as `history --jobs` names it: its package tool when its driver names one
    /// (`dnf`), `apt` when its updates are packages otherwise (an observed transaction too),
    /// `driver` for another driver's, `commands` otherwise.
    public static func kind(of descriptor: JobDescriptor) -> String {
        if let tool = descriptor.packageTool { return tool }
        if descriptor.updates.contains(where: { $0.package != nil }) || descriptor.observedBy != nil { return "apt" }
        return descriptor.runByDriver || descriptor.declaredByDriver ? JobRun.driverKind : JobRun.commandsKind
    }

    /// A row for update `index` of the job, not started yet; `nil` for an index outside it.
    private func newEntry(_ descriptor: JobDescriptor, _ index: Int, _ updateID: String, run: Int64?) -> HistoryEntry? {
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
            writer: writer,
            observedBy: descriptor.observedBy,
            jobRun: run)
    }
}
