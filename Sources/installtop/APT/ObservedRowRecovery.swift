#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallEngine
import InstallHistory
import TextBasics

/// What became of an observed job's packages whose engine stopped before the transaction ended
/// (rule 30 for `HistoryStore.recoverInterruptedEntries`): the transaction went on without it,
/// so each running row is settled from dpkg's final state in the database the job recorded,
/// dated by what dpkg's log says happened meanwhile, never "interrupted" for a package dpkg
/// shows done.
///
/// A row is left running while its transaction may still be under way (the program that ran it
/// still runs, or dpkg's lock there is held): its state is not final yet, and a later start
/// settles it. A row without a recorded database (written before installtop kept it) gets no
/// verdict here and is recorded as interrupted.
enum ObservedRowRecovery {
    /// The verdict for each row that has one, by row id.
    static func settle(_ rows: [HistoryEntry]) -> [Int64: RecoveredResult] {
        var verdicts: [Int64: RecoveredResult] = [:]
        let byDatabase = Dictionary(grouping: rows) { $0.observedBy?.administrativeDirectory ?? "" }
        for (directory, rows) in byDatabase where !directory.isEmpty {
            if case .held = DpkgLock.state(administrativeDirectory: directory) {
                for id in rows.compactMap(\.id) { verdicts[id] = .stillRunning }
                continue
            }
            let states = APTPackageState.query(administrativeDirectory: directory)
            // dpkg-query found nothing at all: no database there (a root since removed) or no
            // dpkg to ask; the rows stay "interrupted" rather than every package "not installed".
            guard !states.isEmpty else { continue }
            var logs: [String: [String]] = [:]
            for row in rows {
                guard let id = row.id, let initiator = row.observedBy else { continue }
                if isRunning(initiator) {
                    verdicts[id] = .stillRunning
                    continue
                }
                var lines: [String] = []
                if let path = initiator.dpkgLog {
                    lines = logs[path] ?? Self.lines(ofLog: path)
                    logs[path] = lines
                }
                verdicts[id] = verdict(for: row, now: states[row.updateID] ?? .notInstalled, log: lines)
            }
        }
        return verdicts
    }

    /// The row's result from the package's state now and the log's lines about it since the row
    /// started.
    static func verdict(for row: HistoryEntry, now state: APTPackageState, log: [String]) -> RecoveredResult {
        let change = PackageChange(package: row.updateID, action: row.packageAction ?? .install, oldVersion: row.oldVersion,
                                   newVersion: row.newVersion)
        return verdict(for: change, since: row.startedAt, now: state, log: log, engineGone: watcherGone)
    }

    /// Whether the program that ran an observed transaction still runs (same pid and start
    /// time): its transaction may still be under way.
    static func isRunning(_ initiator: ObservedInitiator) -> Bool {
        ProcessIdentity(pid: initiator.pid, startTime: initiator.startTicks == 0 ? nil : initiator.startTicks, bootID: nil).isAlive
    }

    /// Why an observed row was settled from dpkg rather than by its engine.
    static let watcherGone = "the engine that watched it stopped before the transaction ended"

    /// `change`'s result from the package's state now and the log's lines about it since `since`
    /// (the whole log when `nil`); `engineGone` says why it is settled so. With `mayBeUnstarted`
    /// (a package without a row), one the log does not name since then and that dpkg shows as it
    /// was before the change was never begun: it is aborted, not started, rather than failed.
    static func verdict(for change: PackageChange, since start: Date?, now state: APTPackageState, log: [String], engineGone: String,
                        mayBeUnstarted: Bool = false) -> RecoveredResult {
        let since = start.map(Self.logTime) ?? ""
        // The package's states in the log from the row's start on (the log's times have whole
        // seconds: a line of the second it started counts).
        let states = log.compactMap { text -> (time: String, state: String)? in
            guard let line = DpkgLogLine(Substring(text)), line.time >= since,
                  case .status(let package, let state)? = line.status, package == change.package else { return nil }
            return (line.time, state)
        }
        if mayBeUnstarted, states.isEmpty, state.isUntouched(by: change), change.action != .reinstall {
            return .settled(resultCode: .aborted, hResult: .callCancelled,
                            reason: "not started: dpkg's log does not name it since the job began, and dpkg shows it \(state); \(engineGone)",
                            endedAt: nil)
        }
        if state.satisfies(change) {
            let done = change.isRemoval ? ["not-installed", "config-files"] : ["installed"]
            let end = states.last { done.contains($0.state) }
            let when = end.map { " (dpkg's log: \($0.state) at \($0.time))" } ?? ""
            return .settled(resultCode: .succeeded, hResult: .ok, reason: "from dpkg's state: \(state)\(when); \(engineGone)",
                            endedAt: end.flatMap { Self.date(fromLogTime: $0.time) })
        }
        let last = states.last.map { "; dpkg's log last shows it \($0.state) at \($0.time)" } ?? ""
        return .settled(resultCode: .failed, hResult: .installerFailure, reason: "dpkg shows it \(state)\(last); \(engineGone)",
                        endedAt: nil)
    }

    /// The log's lines; none when it cannot be read.
    static func lines(ofLog path: String) -> [String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    /// `2026-11-25 13:11:19`, local time, as dpkg writes its log.
    static func logTime(_ date: Date) -> String {
        LocalTimeText.string(Int(date.timeIntervalSince1970.rounded(.down)), format: logTimeFormat)
    }

    static func date(fromLogTime text: String) -> Date? {
        LocalTimeText.seconds(ofDateTime: text).map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    private static let logTimeFormat = "%Y-%m-%d %H:%M:%S"
}
