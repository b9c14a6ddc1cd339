import Foundation
import InstallEngine
import InstallHistory
import Testing
@testable import installtop

/// A dnf run whose engine died, settled from the rpm database (`DNFRunRecovery.verdict`): what
/// each package's versions there say of its change.
@Suite("DNFRunRecovery: verdicts from the rpm database after the engine died")
struct DNFRunRecoveryTests {
    private let upgrade = PackageChange(package: "lab-lib", action: .upgrade, oldVersion: "1.0-1", newVersion: "2.0-1")
    private let install = PackageChange(package: "lab-new", action: .install, oldVersion: nil, newVersion: "1.0-1")
    private let removal = PackageChange(package: "lab-old", action: .remove, oldVersion: "1.0-1", newVersion: nil)

    private func code(_ result: RecoveredResult) -> OperationResultCode? {
        if case .settled(let code, _, _, _) = result { return code }
        return nil
    }

    @Test("exactly the new version (none for a removal) succeeded; as before is not started when it may not have begun, else failed; two versions are a duplicate")
    func verdicts() {
        #expect(code(DNFRunRecovery.verdict(for: upgrade, installed: ["2.0-1"], mayBeUnstarted: true)) == .succeeded)
        #expect(code(DNFRunRecovery.verdict(for: install, installed: ["1.0-1"], mayBeUnstarted: false)) == .succeeded)
        #expect(code(DNFRunRecovery.verdict(for: removal, installed: [], mayBeUnstarted: false)) == .succeeded)

        #expect(code(DNFRunRecovery.verdict(for: upgrade, installed: ["1.0-1"], mayBeUnstarted: true)) == .aborted)
        #expect(code(DNFRunRecovery.verdict(for: install, installed: [], mayBeUnstarted: true)) == .aborted)
        #expect(code(DNFRunRecovery.verdict(for: removal, installed: ["1.0-1"], mayBeUnstarted: true)) == .aborted)
        // Ended otherwise by the engine before it died: its row is not running, so not "not started".
        #expect(code(DNFRunRecovery.verdict(for: upgrade, installed: ["1.0-1"], mayBeUnstarted: false)) == .failed)

        guard case .settled(let duplicate, _, let reason, _) = DNFRunRecovery.verdict(for: upgrade, installed: ["1.0-1", "2.0-1"],
                                                                                     mayBeUnstarted: true) else {
            Issue.record("no verdict")
            return
        }
        #expect(duplicate == .failed)
        #expect(reason.hasPrefix("a duplicate: the rpm database holds 1.0-1 and 2.0-1"), "\(reason)")
    }
}

/// What a settled dnf row says of dnf and rpm once its engine died: only what dnf's own history
/// in the root says of the transaction (`DNFRunRecovery.engineGone`), never "went on" by default.
@Suite("DNFRunRecovery: what is said of dnf and rpm after the engine died")
struct DNFRunRecoveryWordsTests {
    private let began = Date(timeIntervalSince1970: 1_795_836_379)

    @Test("'went on' only when dnf's history records the transaction's end; unfinished, never begun and unreadable say so")
    func words() {
        let ended = DNFHistoryTransaction(began: began, ended: began.addingTimeInterval(3), state: .done, commandLine: "installtop install lab-a")
        #expect(DNFRunRecovery.engineGone(ended)
                == "the engine that ran it stopped before the transaction ended; dnf and rpm went on to its end (dnf's history in the root records it ended)")
        let failed = DNFHistoryTransaction(began: began, ended: began, state: .failed, commandLine: "installtop install lab-a")
        #expect(DNFRunRecovery.engineGone(failed).hasSuffix("went on to its end (dnf's history in the root records it ended, with errors)"))

        let cut = DNFHistoryTransaction(began: began, ended: nil, state: .unfinished, commandLine: "installtop install lab-a")
        let cutWords = DNFRunRecovery.engineGone(cut)
        #expect(!cutWords.contains("went on"), "\(cutWords)")
        #expect(cutWords.hasSuffix("and dnf and rpm did not reach its end either: dnf's history in the root has it begun and never ended"))

        let never = DNFRunRecovery.engineGone(nil)
        #expect(!never.contains("went on") && never.hasSuffix("rpm's transaction never began (dnf's history in the root has none since the run began)"))
        #expect(DNFRunRecovery.engineGone(nil, historyRead: false) == "the engine that ran it stopped before the transaction ended")

        guard case .settled(_, _, let reason, _) = DNFRunRecovery.verdict(
            for: PackageChange(package: "lab-a", action: .install, oldVersion: nil, newVersion: "1.0-1"), installed: ["1.0-1"],
            mayBeUnstarted: false, engineGone: DNFRunRecovery.engineGone(cut)) else {
            Issue.record("no verdict")
            return
        }
        #expect(reason.hasPrefix("from the rpm database: 1.0-1; the engine that ran it stopped before the transaction ended, and dnf and rpm did not"))
    }

    @Test("The run's transaction is the one dnf's history has begun nearest its recorded start, also a little before it (--yes: the helper runs on while the run is recorded), not an older one")
    func transactionOfTheRun() {
        let start = began.addingTimeInterval(10)
        func begun(_ offset: TimeInterval, _ command: String) -> DNFHistoryTransaction {
            DNFHistoryTransaction(began: start.addingTimeInterval(offset), ended: nil, state: .unfinished, commandLine: command)
        }
        // Begun a second before the run's recorded start (rounded down by dnf), an earlier one before it.
        #expect(DNFRunRecovery.transaction(ofRunBegunAt: start, among: [begun(-30, "installtop install lab-old"), begun(-1, "installtop install lab-a")])
                == begun(-1, "installtop install lab-a"))
        // Two as near: the later (the earlier had ended before its helper began).
        #expect(DNFRunRecovery.transaction(ofRunBegunAt: start, among: [begun(0, "installtop install lab-old"), begun(0, "installtop install lab-a")])
                == begun(0, "installtop install lab-a"))
        #expect(DNFRunRecovery.transaction(ofRunBegunAt: start, among: [begun(-61, "installtop install lab-old")]) == nil)
        #expect(DNFRunRecovery.transaction(ofRunBegunAt: start, among: []) == nil)
    }
}
