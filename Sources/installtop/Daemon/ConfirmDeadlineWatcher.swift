import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallHistory
import RestartScan
import Synchronization

/// The engine's watch over commit-confirmed runs in its history (Documentation/COMMIT-CONFIRMED.md):
/// once a second, and at once when it starts, every open window is read from the history, and
/// each whose revert is due (its deadline passed, or a check regressed and it asked for a
/// revert then), or whose reverter died mid-revert, is reverted by a child
/// `installtop apt revert RUN --due`, which claims it in the history first: a window the
/// waiting command claimed, or a confirmation that came first, makes the child change nothing.
/// So a deadline outlives the command that armed it, and an engine started after a deadline
/// passed reverts at once. The child runs in its own process group: a stop of the engine
/// leaves a revert under way to finish.
final class ConfirmDeadlineWatcher: Sendable {
    private let historyDatabase: String
    private let executable: String
    private let log: @Sendable (String) -> Void
    private let stopped = Mutex(false)
    private let wake = DispatchSemaphore(value: 0)

    /// How often the windows are read.
    static let interval = 1.0

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
                if let store { revertDue(store) }
                _ = wake.wait(timeout: .now() + Self.interval)
            }
        }
    }

    /// Stops watching; a revert under way goes on in its child.
    func stop() {
        stopped.withLock { $0 = true }
        wake.signal()
    }

    /// Reverts, one after the other, every window due now.
    private func revertDue(_ store: HistoryStore) {
        guard let windows = try? store.openConfirmWindows() else { return }
        let now = Date()
        for window in windows where !stopped.withLock({ $0 }) {
            let reverterAlive = window.reverter?.isAlive ?? false
            guard case .revert(let reason) = ConfirmWindowRules.decide(.revertIfDue, on: window, at: now, reverterAlive: reverterAlive)
            else { continue }
            log("run \(window.run): \(reason): reverting it (installtop apt revert \(window.run) --due)")
            let child = SystemCommand.run([executable, "apt", "revert", String(window.run), "--due", "--yes", "--plain",
                                           "--history-db", historyDatabase])
            let said = child.stderr.split(separator: "\n").filter { $0.hasPrefix("installtop: run") }.last.map(String.init) ?? ""
            switch child.status {
            case ExitStatus.reverted.rawValue: log("run \(window.run): reverted" + (said.isEmpty ? "" : " (\(said))"))
            case ExitStatus.succeeded.rawValue: log("run \(window.run): not due after all (confirmed or extended meanwhile)")
            default: log("run \(window.run): revert ended with exit status \(child.status)" + (said.isEmpty ? "" : ": \(said)"))
            }
        }
    }
}
