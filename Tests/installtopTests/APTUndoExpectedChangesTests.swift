import InstallDrivers
import InstallEngine
import InstallHistory
import Testing
@testable import installtop

/// What an undo is expected to replace, kept ahead of apt's hook (rule 33): known from the run
/// before apt resolves, as apt's hook will name it (a downgrade is an upgrade from the version
/// installed now).
@Suite("APTUndoPreparation: what the undo replaces, known before apt resolves")
struct APTUndoExpectedChangesTests {
    @Test("an upgrade is replaced at its new version, an install is removed, a removal replaces nothing, a failed package is left")
    func expected() {
        let run = JobRun(id: 7, kind: "apt", name: "apt upgrade", operation: .install, startedAt: nil, endedAt: nil, resultCode: .succeeded,
                         packages: [
                            JobRunPackage(name: "openssl", action: .upgrade, oldVersion: "3.0.14", newVersion: "3.0.15", resultCode: .succeeded),
                            JobRunPackage(name: "newdep", action: .install, oldVersion: nil, newVersion: "1.2", resultCode: .succeeded),
                            JobRunPackage(name: "gone", action: .remove, oldVersion: "0.9", newVersion: nil, resultCode: .succeeded),
                            JobRunPackage(name: "failed", action: .upgrade, oldVersion: "1", newVersion: "2", resultCode: .failed),
                         ])
        let preparation = APTUndoPreparation(run: run, request: .undo(run: 7, debs: [], removing: []),
                                             environment: APTEnvironment(aptConfig: nil, administrativeDirectory: "/var/lib/dpkg", root: "/", dpkgOptions: []), staging: APTUndoStaging(folder: nil),
                                             automaticBefore: [], leaves: [])
        #expect(preparation.expectedChanges == [
            PackageChange(package: "openssl", action: .upgrade, oldVersion: "3.0.15", newVersion: "3.0.14"),
            PackageChange(package: "newdep", action: .remove, oldVersion: "1.2"),
        ])
    }
}
