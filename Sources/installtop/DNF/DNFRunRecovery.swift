#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallEngine
import InstallHistory

/// What became of a dnf job's run whose engine died before the transaction ended
/// (`HistoryStore.recoverInterruptedRuns`, through `DNFKindRegistration`, as `APTRunRecovery` does
/// for apt's): rpm's transaction goes on without installtop (it cannot be cut), so every
/// package of the run's plan is settled from the rpm database of the root the run recorded. A run is left for a
/// later look while dnf's or rpm's lock is held there.
///
/// Whether dnf and rpm went on without the engine is said only as dnf's own history in the root
/// records it (`DNFHistoryTransaction`): the helper, which runs rpm in its own process, may have
/// outlived the engine (installtop killed) or died with it (both killed), and its transaction
/// then ended or was left unfinished.
enum DNFRunRecovery {
    static let engineStopped = "the engine that ran it stopped before the transaction ended"

    /// How long before the run's recorded start its transaction may have begun: with `--yes` the
    /// helper runs on while installtop makes the job and records the run (under load, seconds).
    static let startSlack: TimeInterval = 60

    /// The transaction of installtop's helper that a run begun at `start` ran: of those dnf's
    /// history has begun since `startSlack` before it (`transactions`, oldest first), the one
    /// begun nearest to it, the later of two as near (one before it had ended before its helper
    /// began).
    static func transaction(ofRunBegunAt start: Date, among transactions: [DNFHistoryTransaction]) -> DNFHistoryTransaction? {
        transactions.filter { $0.began >= start.addingTimeInterval(-startSlack) }
            .min { abs($0.began.timeIntervalSince(start)) < abs($1.began.timeIntervalSince(start)) }
            .map { nearest in
                transactions.last { abs($0.began.timeIntervalSince(start)) == abs(nearest.began.timeIntervalSince(start)) } ?? nearest
            }
    }

    /// What each row says of the engine, dnf and rpm: that the engine stopped, and what dnf's
    /// history in the root says of the transaction installtop's helper began for the run
    /// (`transaction`; `historyRead`: false when dnf's history could not be read).
    static func engineGone(_ transaction: DNFHistoryTransaction?, historyRead: Bool = true) -> String {
        guard historyRead else { return engineStopped }
        guard let transaction else {
            return engineStopped + "; rpm's transaction never began (dnf's history in the root has none since the run began)"
        }
        guard transaction.ended != nil, transaction.state != .unfinished else {
            return engineStopped + ", and dnf and rpm did not reach its end either: dnf's history in the root has it begun and never ended"
        }
        return engineStopped + "; dnf and rpm went on to its end (dnf's history in the root records it ended"
            + (transaction.state == .failed ? ", with errors)" : ")")
    }

    /// The settlement of `run` in `root` (`/`: this system); `nil` when the rpm database cannot
    /// be read there (a root since removed): no word on it.
    static func settle(_ run: InterruptedRun, root: String) -> RunSettlement? {
        let root = root == "/" ? nil : root
        if DNFRootLock.isHeld(root: root) { return .stillRunning }
        guard let installed = DNFRPMDatabase(root: root).installed(Set(run.origin.plan.map(\.package))) else { return nil }
        let gone: String
        if let start = run.startedAt,
           let transactions = DNFHistoryTransaction.helperTransactions(root: root, since: start.addingTimeInterval(-startSlack)) {
            gone = engineGone(transaction(ofRunBegunAt: start, among: transactions))
        } else {
            gone = engineGone(nil, historyRead: false)
        }
        var packages: [String: RecoveredResult] = [:]
        for change in run.origin.plan {
            let row = run.rows.first { $0.updateID == change.package }
            packages[change.package] = verdict(for: change, installed: DNFRPMDatabase.versions(of: change.package, in: installed),
                                               mayBeUnstarted: row == nil || row?.isRunning == true, engineGone: gone)
        }
        return .settled(packages: packages, endedAt: nil)
    }

    /// `change`'s verdict from `installed`, the versions of its package the rpm database holds
    /// now. Exactly the new version (none for a removal) succeeded; the old one, untouched, was
    /// not started when it may not have been; two versions are a duplicate (the cleanup never
    /// ran); anything else failed.
    static func verdict(for change: PackageChange, installed: [String], mayBeUnstarted: Bool,
                        engineGone: String = engineStopped) -> RecoveredResult {
        let done = change.isRemoval ? [] : change.newVersion.map { [$0] } ?? []
        let untouched = change.action == .install ? [] : change.oldVersion.map { [$0] } ?? []
        let held = installed.isEmpty ? "none installed" : installed.joined(separator: " and ")
        if installed == done {
            return .settled(resultCode: .succeeded, hResult: .ok, reason: "from the rpm database: \(held); \(engineGone)", endedAt: nil)
        }
        if mayBeUnstarted, installed == untouched {
            return .settled(resultCode: .aborted, hResult: .callCancelled,
                            reason: "not started: the rpm database has it as before (\(held)); \(engineGone)", endedAt: nil)
        }
        let what = installed.count > 1 ? "a duplicate: the rpm database holds \(held) (the old version's cleanup never ran)"
            : "the rpm database holds \(held)"
        return .settled(resultCode: .failed, hResult: .installerFailure, reason: "\(what); \(engineGone)", endedAt: nil)
    }

}
