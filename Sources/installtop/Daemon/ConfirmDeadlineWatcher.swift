import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import InstallDrivers
import InstallHistory
import RestartScan
import Synchronization

/// The engine's watch over commit-confirmed runs in its history (Documentation/COMMIT-CONFIRMED.md):
/// once a second, and at once when it starts, every open window is read from the history, and
/// each whose revert is due (its deadline passed, or a check regressed and it asked for a
/// revert then), or whose reverter died mid-revert, is reverted by a child
/// `installtop TOOL revert RUN --due` of the window's tool (`apt`, `dnf`), which claims it in
/// the history first: a window the waiting command claimed, or a confirmation that came first,
/// makes the child change nothing.
/// So a deadline outlives the command that armed it, and an engine started after a deadline
/// passed reverts at once. The child runs in its own process group: a stop of the engine
/// leaves a revert under way to finish.
///
/// It is also what the engine tells its clients of those runs (`ArmedRunsSource`): the open
/// windows and those decided in the last day, pushed when they change (whoever changed them:
/// a confirmation through the engine, `installtop confirm --run` on the host, a revert), the
/// `confirmRun` command's decision, and the `checkRun` command's checks run again
/// (`ArmedRunCheck`).
final class ConfirmDeadlineWatcher: ArmedRunsSource {
    private let historyDatabase: String
    private let executable: String
    private let log: @Sendable (String) -> Void
    private let stopped = Mutex(false)
    private let wake = DispatchSemaphore(value: 0)
    /// Runs whose revert child this engine started and that has not ended.
    private let reverting = Mutex<Set<Int64>>([])
    private let observers = Mutex<[@Sendable (ArmedRuns) -> Void]>([])
    /// What the observers were told last.
    private let told = Mutex<ArmedRuns?>(nil)

    /// How often the windows are read.
    static let interval = 1.0
    /// How long a decided window stays in what clients are told.
    static let decidedShownFor = 24 * 3600.0

    init(historyDatabase: String, executable: String, log: @escaping @Sendable (String) -> Void) {
        self.historyDatabase = historyDatabase
        self.executable = executable
        self.log = log
    }

    /// Starts watching on a thread of its own.
    func start() {
        DispatchQueue(label: "installtop.confirm-deadlines").async { [self] in
            // Opened once it exists: a history no job has written yet holds no window.
            var store: HistoryStore?
            while !stopped.withLock({ $0 }) {
                if store == nil { store = try? HistoryStore(path: historyDatabase, createIfMissing: false) }
                // One read a tick: the open windows to revert are among those clients are told.
                if let store, let windows = try? store.recentConfirmWindows(since: Date().addingTimeInterval(-Self.decidedShownFor)) {
                    revertDue(windows.map(\.window).filter { !$0.state.isSettled }.sorted { $0.deadline < $1.deadline })
                    publish(windows)
                }
                _ = wake.wait(timeout: .now() + Self.interval)
            }
        }
    }

    /// Stops watching; a revert under way goes on in its child.
    func stop() {
        stopped.withLock { $0 = true }
        wake.signal()
    }

    /// Reads the windows again now (a run was armed or decided).
    func lookNow() {
        wake.signal()
    }

    /// Starts the revert of every window of `windows` (the open ones, soonest deadline first)
    /// due now that this engine is not reverting already.
    private func revertDue(_ windows: [ConfirmWindow]) {
        let now = Date()
        for window in windows where !stopped.withLock({ $0 }) {
            let reverterAlive = window.reverter?.isAlive ?? false
            guard case .revert(let reason) = ConfirmWindowRules.decide(.revertIfDue, on: window, at: now, reverterAlive: reverterAlive),
                  reverting.withLock({ $0.insert(window.run).inserted })
            else { continue }
            let command = Self.revertCommand(for: window, historyDatabase: historyDatabase)
            log("run \(window.run): \(reason): reverting it (installtop \(command.prefix(3).joined(separator: " ")) --due)")
            // A revert takes minutes at times: on a thread of its own, so that clients go on
            // hearing of every window meanwhile (this one `reverting` once the child claims it).
            DispatchQueue.global().async { [self] in
                defer {
                    reverting.withLock { _ = $0.remove(window.run) }
                    lookNow()
                }
                let child = SystemCommand.run([executable] + command)
                // The revert's own word on how it ended, not a later line of its (the services').
                let lines = child.stderr.split(separator: "\n").filter { $0.hasPrefix("installtop: run") }
                let said = (lines.last { $0.contains(" reverted by run ") || $0.contains(" could not be reverted") } ?? lines.last).map(String.init) ?? ""
                switch child.status {
                case ExitStatus.reverted.rawValue: log("run \(window.run): reverted" + (said.isEmpty ? "" : " (\(said))"))
                case ExitStatus.succeeded.rawValue: log("run \(window.run): not due after all (confirmed or extended meanwhile)")
                default: log("run \(window.run): revert ended with exit status \(child.status)" + (said.isEmpty ? "" : ": \(said)"))
                }
            }
        }
    }

    // MARK: - What clients are told

    func observe(_ body: @escaping @Sendable (ArmedRuns) -> Void) {
        let now = told.withLock { $0 }
        observers.withLock { $0.append(body) }
        body(now ?? ArmedRuns(runs: []))
    }

    /// Tells the observers `windows` (open, and decided in the last day) when they changed
    /// since they were told last.
    private func publish(_ windows: [(window: ConfirmWindow, name: String)]) {
        let runs = ArmedRuns(runs: windows.map { window, name in
            ArmedRun(run: Int(window.run), state: ArmedRun.State(rawValue: window.state.rawValue) ?? .expired, armedAt: window.armedAt,
                     deadline: window.deadline, decidedAt: window.decidedAt, reason: window.reason,
                     regressions: window.regressions.map(\.text), name: name, revertRun: window.revertRun.map(Int.init))
        })
        let changed = told.withLock { told -> Bool in
            guard told != runs else { return false }
            told = runs
            return true
        }
        guard changed else { return }
        for observer in observers.withLock({ $0 }) { observer(runs) }
    }

    func decide(run: Int, extend: Double?) -> Result<String, WireError> {
        defer { lookNow() }
        switch ArmedRunDecision(jobRun: Int64(run), extend: extend, historyDatabase: historyDatabase).take() {
        case .done(let said, let warning):
            log(said + (warning.map { "; \($0)" } ?? ""))
            return .success(said)
        case .refused(let why):
            return .failure(WireError(.confirmRefused, why))
        case .failed(let error):
            return .failure(WireError(.historyUnavailable, "run \(run): the history cannot be read: \(error)"))
        }
    }

    func checkAgain(run: Int) -> Result<ChecksRunAgain, WireError> {
        switch ArmedRunCheck(jobRun: Int64(run), historyDatabase: historyDatabase).take() {
        case .checked(let checked):
            log(checked.said)
            // A regression of a window that reverts on one is due now: reverted at once, as
            // after the job, and clients hear of the new regressions.
            lookNow()
            return .success(checked)
        case .refused(let why):
            return .failure(WireError(.notArmed, why))
        case .failed(let error):
            return .failure(WireError(.historyUnavailable, "run \(run): the history cannot be read: \(error)"))
        }
    }

    /// The arguments of the child that reverts `window`'s run: its own tool's `revert`, which
    /// acts on the root the window recorded.
    static func revertCommand(for window: ConfirmWindow, historyDatabase: String) -> [String] {
        [window.tool, "revert", String(window.run), "--due", "--yes", "--plain", "--history-db", historyDatabase]
    }
}
