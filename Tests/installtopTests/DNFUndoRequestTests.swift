import InstallDrivers
import InstallEngine
import InstallHistory
import Testing
@testable import installtop

/// The reverse of a dnf run as one dnf request (Documentation/DNF-JOBS.md, "Undo"), checked
/// against the rpm database now: kept rpms put back, installs removed, and every refusal.
@Suite("DNFUndoRequest: a dnf run's reverse, checked against the rpm database")
struct DNFUndoRequestTests {
    private static let run = JobRun(
        id: 5, kind: "dnf", name: "dnf upgrade", operation: .install, startedAt: nil, endedAt: nil, resultCode: .succeeded,
        packages: [
            JobRunPackage(name: "lab-lib", action: .upgrade, oldVersion: "1.0-1", newVersion: "2.0-1", resultCode: .succeeded),
            JobRunPackage(name: "lab-new", action: .install, oldVersion: nil, newVersion: "1.0-1", resultCode: .succeeded),
            JobRunPackage(name: "lab-old", action: .remove, oldVersion: "1.0-1", newVersion: nil, resultCode: .succeeded),
            JobRunPackage(name: "lab-fail", action: .upgrade, oldVersion: "1.0-1", newVersion: "2.0-1", resultCode: .failed),
        ],
        kept: [
            KeptVersionRecord(jobRun: 5, package: "lab-lib", version: "1.0-1", architecture: "noarch", file: "/u/5/lab-lib-1.0-1.noarch.rpm"),
            KeptVersionRecord(jobRun: 5, package: "lab-old", version: "1.0-1", architecture: "noarch", file: "/u/5/lab-old-1.0-1.noarch.rpm"),
        ])

    /// The rpm database as the run left it (lab-fail's upgrade failed: still 1.0).
    private static let asLeft = ["lab-lib.noarch": ["2.0-1"], "lab-new.noarch": ["1.0-1"], "lab-fail.noarch": ["1.0-1"]]

    @Test("upgrades and removals come back from their kept rpms, installs go, a failed package is left alone")
    func reverse() throws {
        #expect(try DNFUndoRequest.request(undoing: Self.run, installed: Self.asLeft)
            == .undo(run: 5, restoring: ["/u/5/lab-lib-1.0-1.noarch.rpm", "/u/5/lab-old-1.0-1.noarch.rpm"], removing: ["lab-new.noarch"]))
    }

    @Test("a package changed since, an apt run, a run that cannot be undone, a missing kept rpm: refused with the reason")
    func refusals() {
        var changed = Self.asLeft
        changed["lab-lib.noarch"] = ["3.0-1"]
        #expect(throws: UndoRefusal(message: "lab-lib was changed outside installtop since run 5: the rpm database has 3.0-1 now, not as the run left it (1.0-1 → 2.0-1)")) {
            try DNFUndoRequest.request(undoing: Self.run, installed: changed)
        }
        var reinstalled = Self.asLeft
        reinstalled["lab-old.noarch"] = ["1.0-1"]
        #expect(throws: UndoRefusal.self) { try DNFUndoRequest.request(undoing: Self.run, installed: reinstalled) }

        var apt = Self.run
        apt.kind = "apt"
        #expect(throws: UndoRefusal(message: "run 5 is an apt run: installtop apt undo 5 undoes it")) {
            try DNFUndoRequest.request(undoing: apt, installed: Self.asLeft)
        }
        var undone = Self.run
        undone.notUndoableBecause = "undone already by run 6"
        #expect(throws: UndoRefusal(message: "run 5 cannot be undone: undone already by run 6")) {
            try DNFUndoRequest.request(undoing: undone, installed: Self.asLeft)
        }
        var unkept = Self.run
        unkept.kept.removeFirst()
        #expect(throws: UndoRefusal(message: "run 5 cannot be undone: no kept version of lab-lib")) {
            try DNFUndoRequest.request(undoing: unkept, installed: Self.asLeft)
        }
    }
}
