#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallEngine
import InstallHistory

/// What became of an apt job's run (or an observed one's) whose engine died before the
/// transaction ended (`HistoryStore.recoverInterruptedRuns`, through `APTKindRegistration`): apt
/// and dpkg may have gone on without it, or died with it, so every package of its plan is
/// settled from dpkg's final state in the database the run recorded, dated by dpkg's log. Each
/// row says only what is known (`engineGone`); a package dpkg left half-way names the command
/// that finishes it (`DpkgFinishCommand`: `installtop apt repair RUN` where `dpkg --configure -a`
/// would leave a package as it was). A package the transaction never began (no line of the log names it since the run
/// began, dpkg shows it as it was) is aborted, not started; every other one is what dpkg shows.
///
/// The packages in flight when the engine died (running then, or left half-way by dpkg) have
/// their files checked too (`dpkg --verify`, conffiles aside): one whose files differ from what
/// dpkg recorded fails, naming them, whatever dpkg's status says.
///
/// A run is left for a later look while its transaction may still be under way: dpkg's
/// front-end lock held there, or the program an observed run watched still running.
enum APTRunRecovery {
    /// The settlement of each run that has one, by run id.
    static func settle(_ runs: [InterruptedRun]) -> [Int64: RunSettlement] {
        var settlements: [Int64: RunSettlement] = [:]
        var logs: [String: [String]] = [:]
        for run in runs {
            guard let directory = run.origin.administrativeDirectory else { continue }
            if case .held = DpkgLock.state(administrativeDirectory: directory) {
                settlements[run.id] = .stillRunning
                continue
            }
            if let watched = run.rows.compactMap(\.observedBy).first, ObservedRowRecovery.isRunning(watched) {
                settlements[run.id] = .stillRunning
                continue
            }
            let states = APTPackageState.query(administrativeDirectory: directory)
            // No database there any more (a root since removed), or no dpkg-query: no word on it.
            guard !states.isEmpty else { continue }
            var lines: [String] = []
            if let path = run.origin.dpkgLog {
                lines = logs[path] ?? ObservedRowRecovery.lines(ofLog: path)
                logs[path] = lines
            }
            let engineGone = run.observed ? ObservedRowRecovery.watcherGone : Self.engineGone
            var packages: [String: RecoveredResult] = [:]
            for change in run.origin.plan {
                let row = run.rows.first { $0.updateID == change.package }
                packages[change.package] = ObservedRowRecovery.verdict(
                    for: change, since: row?.startedAt ?? run.startedAt, now: states[change.package] ?? .notInstalled, log: lines,
                    engineGone: engineGone, mayBeUnstarted: row == nil)
            }
            // Rows of packages dpkg named that the plan did not (an observed run's partial plan).
            for row in run.rows where packages[row.updateID] == nil {
                packages[row.updateID] = ObservedRowRecovery.verdict(for: row, now: states[row.updateID] ?? .notInstalled, log: lines)
            }
            // The packages in flight when the engine died (running, or left half-way by dpkg):
            // their files as dpkg recorded them, or which differ.
            let halfWay = Set(packages.keys).filter { states[$0]?.isHalfWay == true }
            let inFlight = Set(run.rows.filter(\.isRunning).map(\.updateID)).union(halfWay)
            for package in inFlight.sorted() {
                guard case .settled(let code, let hResult, let reason, let end)? = packages[package] else { continue }
                let differing = DpkgVerification.differingFiles(of: package, administrativeDirectory: directory)
                guard !differing.isEmpty else { continue }
                packages[package] = .settled(resultCode: .failed, hResult: code == .failed ? hResult : .installerFailure,
                                             reason: reason + "; " + Self.differingText(package, differing, run: run.id), endedAt: end)
            }
            // Last in each half-way row, one command for all of them: dpkg --configure -a
            // cannot configure a package whose dependency is left half-installed.
            if let finish = DpkgFinishCommand.text(for: states.filter { halfWay.contains($0.key) }, run: run.id) {
                for package in halfWay {
                    guard case .settled(let code, let hResult, let reason, let end)? = packages[package] else { continue }
                    packages[package] = .settled(resultCode: code, hResult: hResult, reason: reason + "; \(finish) finishes it",
                                                 endedAt: end)
                }
            }
            let ends = packages.values.compactMap { verdict -> Date? in
                if case .settled(_, _, _, let endedAt) = verdict { return endedAt }
                return nil
            }
            settlements[run.id] = .settled(packages: packages, endedAt: ends.max())
        }
        return settlements
    }

    /// Why a run is settled from dpkg: its engine stopped. Not whether apt and dpkg went on or
    /// were killed with it: nothing installtop keeps tells (their processes are gone by the time
    /// dpkg's lock is free, and the engine's last rows may not have been written), so it is not
    /// said; dpkg's state and log, in each row, say how far the transaction got.
    static let engineGone = "the engine that ran it stopped before the transaction ended"

    /// `dpkg --verify of lab-k2: 2 files differ from what dpkg recorded (/usr/share/a, /usr/bin/b):
    /// installtop apt repair 3 reinstalls it`.
    static func differingText(_ package: String, _ files: [DpkgVerifiedFile], run: Int64) -> String {
        "dpkg --verify of \(package): \(DpkgVerification.phrase(files)): installtop apt repair \(run) reinstalls it"
    }
}
