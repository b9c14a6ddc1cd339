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
