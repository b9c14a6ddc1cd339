#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The rules of one installation job (Documentation/ENGINE-SEMANTICS.md, rules 4–18 and 21–25) as a value:
/// every input is a mutating method that returns the actions its runner must perform
/// (start a child, signal it, schedule a timer, deliver a callback, complete).
///
/// It does no I/O, takes no locks and reads no clock: times come in with the inputs and timers
/// go out as actions, so every rule can be tested with a manual clock and without processes.
/// `InstallationJob` is the runner that performs the actions for real.
///
/// A job runs in one of two modes. With `.childPerUpdate` the updates run one after another,
/// one child each. With `.driver` one driver runs the whole job and says when each update
/// starts and how it ended (rules 21–25).
public struct JobMachine: Sendable {
    /// How the job's updates are run.
    public enum Mode: Sendable, Hashable {
        /// One child process per update, one after another.
        case childPerUpdate
        /// One driver process for every update of the job.
        case driver
    }

    enum Phase: Sendable, Equatable {
        case notStarted
        /// `.startUpdate(index)` was asked for; the child does not exist yet.
        case launching(index: Int)
        /// The child of update `index` runs.
        case running(index: Int)
        /// The driver runs.
        case driverRunning
        case completed
    }

    /// The snapshot of the update list (rule 4), with the updates a driver added since
    /// (`acceptsAddedUpdates`), each after the last.
    public private(set) var updates: [Update]
    public let mode: Mode
    /// Rule 18.
    public let stopOnFailure: Bool
    /// Whether the driver may add updates as it runs (rule 28: an observed job without a plan);
    /// otherwise an added update is a protocol error (rule 22).
    public let acceptsAddedUpdates: Bool
    /// Whether the driver's process runs before the job starts (`JobDriver.runsAlready`): an
    /// abort before the start then still starts the driver, and stops it as an abort of a
    /// running driver does (rules 24–25), instead of completing the job without it (rule 13).
    public let driverRunsAlready: Bool
    /// Replaces every update's own abort grace when set (`--abort-grace`).
    public let abortGraceOverride: Duration?
    /// Whether progress callbacks are wanted: no `.notify` action is produced while it is false,
    /// so a job nobody watches costs no snapshots.
    public var reportsProgress: Bool

    /// Every update's result as it stands (`notStarted`, `inProgress` or final).
    public var results: [UpdateInstallationResult] { Array(resultList) }
    /// `results`, in the chunks that snapshots share (see `UpdateResultList`).
    private(set) var resultList: UpdateResultList
    /// The update `progress()` reports on: the one running, the one the driver spoke of last,
    /// or the last one that ran.
    public private(set) var currentIndex = 0
    public private(set) var abortRequested = false
    public private(set) var abortForced = false
    /// The abort a driver's stop before the start gave (`driverStoppedAlready`), until the
    /// first abort request: that request is the operator's first, announced as such and not
    /// taken for a second one that forces (rule 12), since it is the same stop.
    private var abortFromStopBeforeStart = false
    public private(set) var stoppedByFailure = false
    /// What stopped the driver's tool by force when installtop did not (rule 25a), said on the
    /// updates it never started.
    private var stoppedByForceReason: String?
    /// The job's result once it has completed.
    public private(set) var result: InstallationResult?
    /// Progress-channel lines that could not be understood, and lines a driver's tool wrote that
    /// the driver could not read (ignored, rule 22's count too).
    public private(set) var malformedChannelLines = 0
    /// Driver reports about an update outside the plan or out of its lifecycle (rule 22).
    public private(set) var driverProtocolErrors = 0
    /// Lines of the driver's tool that never reached it (`DriverReport.linesDropped`).
    public internal(set) var droppedLines = 0
    /// The highest figure a driver gave for the whole job (`driverJobProgress`), 0 before one.
    var driverJobPercent = JobPercent.zero
    /// The driver's status text for the whole job (`driverJobMessage`); `nil` when it has none.
    public internal(set) var jobMessage: String?

    private(set) var phase = Phase.notStarted
    /// What each update said while it ran. A start gives it a fresh one (`markStarted`); its
    /// percent is raised by `applyProgress` alone, and set to 100 by a success (`finish`).
    var runs: [UpdateRunState]

    // MARK: - Rule 6's counts, kept in step by `countResult` and `applyProgress` alone

    /// Updates in progress now; one at most unless a driver runs several.
    var runningIndices: Set<Int> = []
    /// How many results are final; kept so a snapshot costs the same for 10,000 updates as for 1.
    var finishedCount = 0
    /// The sum of `runs[i].percent` over `runningIndices`, kept as they change for the same
    /// reason: a driver starts every package of its job at once, and walking them on each event
    /// made a job of n packages cost O(n²). Exact while one update runs (it is then that one's
    /// percent), so a child-per-update job's figures are those of a fresh sum.
    var runningPercentSum = 0.0
    /// Rule 6's figure for the whole job, brought up to date with every change it is made of.
    /// It only rises and stops at 100: an incremental sum of several running updates' percents
    /// may round differently from a fresh one, and rounding must not lower the job's bar.
    var ruleSixPercent = JobPercent.zero

    // MARK: - Making one

    /// - Parameters:
    ///   - updates: the job's updates; `begin` refused an empty list (rule 1).
    ///   - reportsProgress: whether `.notify` actions are wanted.
    ///   - driverStoppedAlready: with `driverRunsAlready`, its process was asked to stop before
    ///     the job began (`JobDriver.stopRequestedAlready`): the job is aborted from the start.
    public init(
        updates: [Update],
        mode: Mode = .childPerUpdate,
        stopOnFailure: Bool = false,
        abortGraceOverride: Duration? = nil,
        reportsProgress: Bool = true,
        acceptsAddedUpdates: Bool = false,
        driverRunsAlready: Bool = false,
        driverStoppedAlready: Bool = false
    ) {
        precondition(!updates.isEmpty, "a job has at least one update (rule 1)")
        self.updates = updates
        self.mode = mode
        self.stopOnFailure = stopOnFailure
        self.acceptsAddedUpdates = acceptsAddedUpdates
        self.driverRunsAlready = driverRunsAlready
        // Its process was asked to stop before the job began: aborted from the start, the
        // driver started and told to stop as for any abort before the start (`start`).
        abortRequested = driverRunsAlready && driverStoppedAlready
        abortFromStopBeforeStart = abortRequested
        self.abortGraceOverride = abortGraceOverride
        self.reportsProgress = reportsProgress
        resultList = UpdateResultList(Array(repeating: .notStarted, count: updates.count))
        runs = Array(repeating: UpdateRunState(), count: updates.count)
    }

    /// True once every update has its final result (set before the `.complete` action).
    public var isCompleted: Bool { result != nil }

    // MARK: - Inputs

    /// Starts the job: its first update, or its driver. A job aborted before it started
    /// completes at once with every update aborted (rule 13), unless its driver runs already:
    /// that one is started and told to stop (forced when the abort was).
    public mutating func start(now: Date) -> [JobAction] {
        guard phase == .notStarted else { return [] }
        var actions: [JobAction] = []
        switch mode {
        case .childPerUpdate:
            beginUpdate(at: 0, now: now, into: &actions)
        case .driver:
            if abortRequested, !driverRunsAlready {
                complete(into: &actions)
            } else {
                phase = .driverRunning
                actions.append(.startDriver)
                // Its process ran before the job: left alone, it would go on with no one watching.
                if abortRequested { actions.append(abortForced ? .kill : .terminate) }
            }
        }
        return actions
    }

    /// The child of update `index` exists now. An abort requested while it was being started
    /// reaches it here; its timeout starts counting.
    public mutating func updateLaunched(at index: Int) -> [JobAction] {
        guard phase == .launching(index: index) else { return [] }
        phase = .running(index: index)
        var actions: [JobAction] = []
        if abortForced {
            actions.append(.kill)
        } else if abortRequested {
            actions.append(.terminate)
            actions.append(.schedule(.abortGrace(index: index), after: abortGrace(for: index)))
        }
        if let timeout = updates[index].timeout {
            actions.append(.schedule(.timeout(index: index), after: timeout))
        }
        return actions
    }

    /// Update `index` said something (a child's report, or one a driver attributed to it).
    /// Reports about an update that is not in progress are ignored, except output after its
    /// result: a driver may print more about a finished update (apt retries a failed configure
    /// at the end of the transaction), and those lines are its own. They change nothing else.
    public mutating func receive(_ report: UpdateReport, fromUpdateAt index: Int) -> [JobAction] {
        var actions: [JobAction] = []
        receive(report, fromUpdateAt: index, into: &actions)
        return actions
    }

    /// `receive(_:fromUpdateAt:)`, appending its actions to `actions`.
    mutating func receive(_ report: UpdateReport, fromUpdateAt index: Int, into actions: inout [JobAction]) {
        guard resultList.indices.contains(index) else { return }
        guard resultList[index].resultCode == .inProgress else {
            if case .output(let stream, let line) = report, resultList[index].resultCode.isFinal {
                notify(.output(index: index, stream: stream, line: line), into: &actions)
            }
            return
        }
        // Rule 21: the update a driver speaks of is the current one.
        currentIndex = index
        let progressSource = updates[index].progressSource
        switch report {
        case .progress(let percent, let message):
            guard progressSource != .none || message != nil else { return }
            applyProgress(at: index, percent: progressSource == .none ? nil : percent, message: message, into: &actions)
        case .message(let text):
            applyProgress(at: index, percent: nil, message: text, into: &actions)
        case .rebootRequired:
            runs[index].rebootReported = true
        case .error(let text):
            runs[index].keep(error: text)
        case .output(let stream, let line):
            notify(.output(index: index, stream: stream, line: line), into: &actions)
            if progressSource == .output, let percent = OutputPercentScanner.lastPercent(in: line) {
                applyProgress(at: index, percent: percent, message: nil, into: &actions)
            }
        case .malformedChannelLine:
            countIgnoredLine()
        }
    }

    /// The child of update `index` has ended (reaped, output drained). Its result follows
    /// rules 11 and 17; then the next update starts, or the job completes.
    /// - Parameter rebootMarkerChanged: the Debian marker appeared or changed while it ran.
    public mutating func updateEnded(
        at index: Int, outcome: UpdateRunOutcome, rebootMarkerChanged: Bool, now: Date
    ) -> [JobAction] {
        guard phase == .running(index: index) || phase == .launching(index: index) else { return [] }
        var actions: [JobAction] = [
            .cancel(.abortGrace(index: index)), .cancel(.timeout(index: index)), .cancel(.timeoutGrace(index: index)),
        ]
        let update = updates[index]
        let facts = UpdateResultClassifier.Facts(
            outcome: outcome, abortRequested: abortRequested, timedOut: runs[index].timedOut,
            timeout: update.timeout, reportedErrors: runs[index].errors,
            rebootReported: runs[index].rebootReported, rebootBehavior: update.rebootBehavior,
            rebootMarkerChanged: rebootMarkerChanged, startedAt: resultList[index].startedAt ?? now, endedAt: now)
        finish(at: index, with: UpdateResultClassifier.result(for: facts), into: &actions)
        if index + 1 < updates.count {
            beginUpdate(at: index + 1, now: now, into: &actions)
        } else {
            complete(into: &actions)
        }
        return actions
    }

    /// The driver's tool was stopped by force, not by installtop (`DriverReport.stoppedByForce`,
    /// rule 25a): from now on the job is as after a forced abort, with nothing to signal (the
    /// tool is gone) and no abort announced (no one asked for one). Ignored on a completed job
    /// or after a forced abort, whose own words stand.
    mutating func driverStoppedByForce(reason: String) {
        guard phase == .driverRunning, !abortForced else { return }
        abortRequested = true
        abortForced = true
        stoppedByForceReason = reason
    }

    /// The driver's side stopped its tool before it changed anything (`DriverReport.stoppedBeforeChanges`):
    /// aborted as by a stop before the start.
    mutating func driverStoppedBeforeChanges() {
        guard phase == .driverRunning, !abortRequested else { return }
        abortRequested = true
        abortFromStopBeforeStart = true
    }

    /// WUA `RequestAbort` (rules 10–13, 24–25). The first request lets no further update
    /// start and stops what runs gracefully (a child gets SIGTERM and a grace timer; a driver
    /// is asked to stop at its next safe point, without a timer). A second request, or `force`,
    /// kills at once. Later requests and requests on a completed job do nothing.
    public mutating func requestAbort(force: Bool) -> [JobAction] {
        guard !isCompleted, !abortForced else { return [] }
        let escalate = (abortRequested && !abortFromStopBeforeStart) || force
        abortFromStopBeforeStart = false
        abortRequested = true
        if escalate { abortForced = true }
        var actions: [JobAction] = []
        notify(.abortRequested(force: escalate), into: &actions)
        switch phase {
        case .running(let index):
            if escalate {
                actions.append(.kill)
            } else {
                actions.append(.terminate)
                actions.append(.schedule(.abortGrace(index: index), after: abortGrace(for: index)))
            }
        case .driverRunning:
            actions.append(escalate ? .kill : .terminate)
        case .notStarted, .launching, .completed:
            // Nothing runs yet: `start` or `updateLaunched` acts on the request.
            break
        }
        return actions
    }

    // MARK: - Steps shared by the inputs

    /// Marks update `index` as running and asks for its child, or completes the job when no
    /// further update may start (an abort, or a failure with `stopOnFailure`).
    private mutating func beginUpdate(at index: Int, now: Date, into actions: inout [JobAction]) {
        guard !abortRequested, !stoppedByFailure else {
            complete(into: &actions)
            return
        }
        markStarted(at: index, now: now, into: &actions)
        phase = .launching(index: index)
        actions.append(.startUpdate(index: index))
    }

    /// - Parameter announcing: the change to announce; `.updateStarted(index:)` when `nil`.
    mutating func markStarted(at index: Int, now: Date, announcing change: JobChange? = nil, into actions: inout [JobAction]) {
        currentIndex = index
        if runningIndices.contains(index) { runningPercentChanged(from: runs[index].percent.value, to: 0) }
        runs[index] = UpdateRunState()
        setResult(UpdateInstallationResult(resultCode: .inProgress, startedAt: now), at: index)
        notify(change ?? .updateStarted(index: index), into: &actions)
    }

    /// Puts `update` after the last update, not started; returns its index. The job's percent
    /// keeps its figure (rule 6: it never goes down) until the finished share passes it again.
    mutating func append(_ update: Update) -> Int {
        updates.append(update)
        resultList.append(.notStarted)
        runs.append(UpdateRunState())
        return updates.count - 1
    }

    /// Gives update `index` its final result and announces it.
    mutating func finish(at index: Int, with result: UpdateInstallationResult, into actions: inout [JobAction]) {
        setResult(result, at: index)
        if result.resultCode.isSuccess { runs[index].percent = .complete }
        if result.resultCode == .failed, stopOnFailure { stoppedByFailure = true }
        notify(.updateCompleted(index: index), into: &actions)
    }

    /// Every update that never started is aborted (rules 11, 13, 18); the job's result follows
    /// rule 16.
    mutating func complete(into actions: inout [JobAction]) {
        let reason = abortRequested
            ? "not started: " + (stoppedByForceReason ?? "the job was aborted")
            : "not started: an earlier update failed and the job stops on failure"
        for index in resultList.indices where resultList[index].resultCode == .notStarted {
            finish(at: index, with: UpdateInstallationResult(resultCode: .aborted, hResult: .callCancelled, reason: reason),
                   into: &actions)
        }
        let combined = InstallationResult.combining(Array(resultList), abortRequested: abortRequested, abortForced: abortForced)
        result = combined
        phase = .completed
        actions.append(.complete(combined))
    }

    mutating func countIgnoredLine() {
        malformedChannelLines += 1
    }

    mutating func countProtocolError() {
        driverProtocolErrors += 1
    }

    func run(at index: Int) -> UpdateRunState { runs[index] }

    private mutating func setResult(_ result: UpdateInstallationResult, at index: Int) {
        countResult(result, at: index)
        resultList[index] = result
    }
}
