#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import InstallEngine
import TerminalUI

/// Everything the monitor shows and remembers, as a value: the queue (rebuilt from engine
/// events) and the UI state. `handle(_:)` is the only way it changes; `MonitorRenderer` draws
/// it. The runtime owns one and performs the effects `handle` returns.
public struct MonitorState: Sendable {
    // MARK: - Queue

    /// The jobs, as the engine's events describe them.
    public internal(set) var queue: QueueModel
    /// Per job, the counts a frame needs (see `tally(of:)`).
    var tallies: [Int: JobTally] = [:]
    /// Jobs whose clean-up was asked for and that are still in the queue ("waiting to clean up…").
    public internal(set) var pendingCleanUps: Set<Int> = []
    /// Jobs awaiting confirmation that were answered yes here, shown as queued until they start.
    public internal(set) var confirmedJobs: Set<Int> = []
    /// Progress rates and past durations, for ETAs.
    var estimates = MonitorEstimates()

    // MARK: - Selection, filter, overlays, messages

    /// The selected job and update, the focused pane and the scroll positions.
    public internal(set) var selection = MonitorSelection()
    /// The `/` filter as typed.
    public internal(set) var filterInput = TextInput()
    /// Which jobs and updates `filterInput` shows.
    var filter = JobFilter()
    /// Drawn over the panes, taking the keys.
    public internal(set) var overlay: MonitorOverlay?
    /// What the monitor waits for before the first job arrives (`starting ansible-playbook…`),
    /// shown instead of "no jobs"; gone once a job is queued, so an emptied queue says "no jobs".
    public var startingNote: String?
    /// The job this monitor was opened for (`installtop apt` in an engine elsewhere): selected
    /// when it is queued, whatever else the engine runs.
    public var followedJob: Int?
    /// The footer's transient message.
    public internal(set) var status: StatusMessage?
    /// Set once the user confirmed quitting while jobs ran.
    public internal(set) var quitPhase: QuitPhase?

    // MARK: - Appearance and time

    /// Display names of the themes `t` cycles through.
    public let themeNames: [String]
    /// The theme in use, an index into `themeNames`.
    public internal(set) var themeIndex: Int
    /// Terminal columns and rows.
    public internal(set) var width: Int
    public internal(set) var height: Int
    /// Unicode or ASCII drawing, and how child text is sanitized.
    public var glyphs: MonitorGlyphs
    /// Advances with every tick; moves the indeterminate bars.
    public internal(set) var phase = 0
    /// The current time, from ticks and engine events.
    public internal(set) var now: Date
    /// When the last `.tick` was handled: the next one is due `tickInterval` after it, however
    /// often `now` moves in between (engine events, `advanceClock`), so ticks keep coming.
    var lastTick: Date
    /// The time zone the history view shows dates in; `nil` is the machine's, looked up when
    /// the view first draws a date: `TimeZone.current` reads ICU's zone data (3 MiB resident),
    /// which a monitor that never opens the history never needs.
    public var timeZone: TimeZone?

    // MARK: - Session

    /// The monitor is attached to an engine in another process (`installtop attach`): `q`, `d`
    /// and signals detach at once and the jobs keep running, instead of asking and aborting.
    public var isAttached = false
    /// The grouped board of several hosts (`installtop attach --host …`), set by
    /// `HostEvent.hosts`; `nil` for a monitor of one engine, which then behaves as it always did.
    public internal(set) var board: HostBoard?
    /// The board's rollout (`U`): marked hosts upgraded a few at a time; `nil` before the first.
    public internal(set) var rollout: Rollout?
    /// How many hosts a rollout, or a refresh of marked hosts, runs at once (`installtop attach
    /// --parallel N`).
    public var rolloutParallel = 2
    /// The board's refresh of marked hosts' lists (`P`); `nil` when none runs.
    public internal(set) var refreshBatch: RefreshBatch?
    /// The attached engine's commit-confirmed runs (a monitor of one engine); `nil` until its
    /// engine told them.
    public internal(set) var armedRuns: ArmedRuns?
    /// The window the board's next `U` and `D` arm each host with, in seconds (`W`,
    /// `attach --confirm`); `nil` arms nothing.
    public var confirmWindowSeconds: Double?
    /// The board keeps an armed run of its rollout once a fresh ssh login to the host works and
    /// none of its checks regressed (`L`, `attach --confirm-by-login`).
    public var confirmByLogin = false
    /// When the board's armed rollout began: only runs armed since are kept by a login.
    var armedRolloutSince: Date?
    /// The runs a fresh login was started for, as `host#run`: each is tried once.
    var freshLogins: Set<String> = []

    /// A monitor with an empty queue.
    /// - Parameters:
    ///   - themeNames: the names `t` cycles through (at least one is assumed for display).
    ///   - outputCapacity: lines of output kept per update.
    public init(
        width: Int, height: Int, glyphs: MonitorGlyphs = .unicode, themeNames: [String] = ["Default"],
        themeIndex: Int = 0, now: Date = Date(), outputCapacity: Int = 1000
    ) {
        queue = QueueModel(outputCapacity: outputCapacity)
        self.width = width
        self.height = height
        self.glyphs = glyphs
        self.themeNames = themeNames
        self.themeIndex = themeNames.indices.contains(themeIndex) ? themeIndex : 0
        self.now = now
        lastTick = now
    }

    // MARK: - Sub-state, read through

    /// The selected job's number; `nil` when no job is shown.
    public var selectedJobID: Int? { selection.jobID }
    /// The selected update's position in the selected job.
    public var selectedUpdateIndex: Int? { selection.updateIndex }
    /// See `MonitorSelection.followsRunningUpdate`.
    public var followsRunningUpdate: Bool { selection.followsRunningUpdate }
    /// The pane the arrow keys act on.
    public var focusedPane: MonitorPane { selection.focusedPane }
    /// First visible row of the jobs pane.
    public var jobsOffset: Int { selection.jobsOffset }
    /// First visible row of the updates pane.
    public var updatesOffset: Int { selection.updatesOffset }
    /// Lines the output pane is scrolled up from the newest line (0 follows the output).
    public var outputScroll: Int { selection.outputScroll }
    /// The `/` filter text; empty when not filtering.
    public var filterText: String { filterInput.text }
    /// True while keys type into the filter.
    public var isEditingFilter: Bool { filterInput.isEditing }
    /// Median seconds of past successful runs by update id, for ETAs (empty without history).
    public var historicalDurations: [String: TimeInterval] { estimates.historicalDurations }

    // MARK: - Queries

    /// Where everything goes at the current size.
    public var layout: MonitorLayout { MonitorLayout(width: width, height: height, board: board != nil) }

    /// The jobs the jobs pane lists (all, or those matching the filter), in queue order.
    public var visibleJobs: [JobState] {
        filter.isActive ? queue.jobs.filter { filter.shows(job: $0.id) } : queue.jobs
    }

    /// The selected job, if any.
    public var selectedJob: JobState? { selectedJobID.flatMap { queue.job($0) } }

    /// The positions of `job`'s updates the updates pane lists.
    public func visibleUpdates(of job: JobState) -> VisibleIndices { filter.visibleUpdates(of: job) }

    /// Jobs that are queued or running: what quitting would abort. A job that only waits for
    /// its restart scan (`JobState.onlyAwaitsRestartScan`) is not counted.
    public var unfinishedJobCount: Int { queue.jobs.count { $0.phase != .completed && !$0.onlyAwaitsRestartScan } }

    /// True when no job is queued or running (the queue may be empty).
    public var isIdle: Bool { !queue.jobs.contains { $0.phase != .completed } }

    /// Whether any update that completed requires a reboot.
    public var rebootRequired: Bool {
        queue.jobs.contains { tally(of: $0).rebootRequired }
    }

    /// How many of `job`'s updates are done of how many (`JobCounts`), without walking its
    /// updates on every frame.
    public func counts(of job: JobState) -> JobCounts { tally(of: job).counts }

    /// `job.percentShown`, without walking a completed job's updates on every frame.
    public func percentShown(of job: JobState) -> Double { tally(of: job).completedPercent ?? job.percentShown }

    /// The counts of `job`, cached by the reducer (counted afresh for a job it has not seen).
    func tally(of job: JobState) -> JobTally { tallies[job.id] ?? JobTally(job) }

    /// How often the runtime ticks while something moves by itself.
    public static let tickInterval: TimeInterval = 0.1

    /// When the runtime should send the next `.tick`: `tickInterval` after the last tick while
    /// a job runs or the monitor waits to quit (elapsed times, ETAs, the moving bars, status
    /// expiry), at a status message's expiry otherwise, and never (`nil`) when nothing can
    /// change by itself. Moving `now` (events, `advanceClock`) never postpones it; after a
    /// stretch without ticks it is already due.
    public var nextTickTime: Date? {
        if quitPhase != nil || queue.jobs.contains(where: { $0.phase == .running }) {
            return lastTick.addingTimeInterval(Self.tickInterval)
        }
        let expiry = status?.staysUntilKey == false ? status?.expiresAt : nil
        if boardCountsSeconds || armedCountsSeconds {
            let second = lastTick.addingTimeInterval(1)
            return min(second, expiry ?? second)
        }
        return expiry
    }

    /// The board shows ages that count every second by themselves: a stale host's (and its
    /// "next try in") and a recomputed row's `shown: 12s old`.
    var boardCountsSeconds: Bool {
        board?.hosts.contains(where: \.isStale) == true || board?.pendingComputing.isEmpty == false
    }

    /// Tells the state the time before it handles input that carries none (keys, signals,
    /// command results), so what that input says lives its full `StatusMessage.lifetime` from
    /// now. The clock never goes back. Unlike a tick it neither animates nor expires anything.
    public mutating func advanceClock(to time: Date) {
        if time > now { now = time }
    }

    // MARK: - Status line

    /// Shows `text` in the footer for `lifetime` (`StatusMessage.lifetime`), or less when it is about
    /// `whileUnfinished` jobs and they all end sooner.
    mutating func say(_ text: String, whileUnfinished jobs: Set<Int> = [], lifetime: TimeInterval = StatusMessage.lifetime) {
        status = StatusMessage(text: text, expiresAt: now.addingTimeInterval(lifetime), whileUnfinished: jobs)
    }

    /// Drops a message about jobs none of which is unfinished any more (completed, or cleaned
    /// up): what it asked of them can no longer be done.
    mutating func dropStatusOfEndedJobs() {
        guard let jobs = status?.whileUnfinished, !jobs.isEmpty else { return }
        if jobs.allSatisfy({ queue.job($0).map { $0.phase == .completed } ?? true }) { status = nil }
    }
}
