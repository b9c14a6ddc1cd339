import EngineWire
import Foundation
import InstallEngine
import InstallHistory
import Monitor
import Testing

@testable import MonitorRuntime

/// The runs list reads the same from the store (`installtop run`, `apt …`) as from an attached
/// engine's `runs` reply (the `history --jobs --json` form).
@Suite("Job run rows")
struct JobRunRowTests {
    static let run = JobRun(
        id: 7, kind: "apt", name: "apt upgrade · 2 to upgrade", operation: .install,
        startedAt: Date(timeIntervalSince1970: 1_795_000_000), endedAt: Date(timeIntervalSince1970: 1_795_000_060),
        resultCode: .succeededWithErrors,
        packages: [
            JobRunPackage(name: "lab-app", action: .upgrade, oldVersion: "1.0", newVersion: "2.0", resultCode: .succeeded),
            JobRunPackage(name: "lab-new", action: .install, oldVersion: nil, newVersion: "2.0", resultCode: .succeeded),
            JobRunPackage(name: "lab-gone", action: .remove, oldVersion: "1.0", newVersion: nil, resultCode: .succeededWithErrors),
            JobRunPackage(name: "lab-failed", action: .upgrade, oldVersion: "1.0", newVersion: "2.0", resultCode: .failed),
        ],
        notUndoableBecause: "run 9 changed lab-app again: undo run 9 first")

    @Test func theStoreAndTheWireGiveTheSameRow() throws {
        let fromStore = JobRunRow(run: Self.run)
        // A package the run did not change says how its update ended, never left out.
        #expect(fromStore.packages == ["lab-app 1.0 → 2.0", "lab-new 2.0 installed", "lab-gone 1.0 removed", "lab-failed 1.0 → 2.0 failed"])
        let json = try JSONParser.parse(try JobRunJSON.line(for: Self.run))
        #expect(JobRunRow(json: json) == fromStore)
        // An engine before the packages had a result listed only those the run changed.
        let older = try JSONParser.parse(#"{"run":7,"kind":"apt","name":"n","packages":[{"name":"lab-app","action":"upgrade","oldVersion":"1.0","newVersion":"2.0"}],"undoable":true}"#)
        #expect(JobRunRow(json: older)?.packages == ["lab-app 1.0 → 2.0"])

        var undoable = Self.run
        undoable.notUndoableBecause = nil
        undoable.resultCode = nil
        let running = try JSONParser.parse(try JobRunJSON.line(for: undoable))
        #expect(JobRunRow(json: running) == JobRunRow(run: undoable), "a run going on, and one that can be undone")
        #expect(JobRunRow(json: .object(["name": .string("no id")])) == nil)
    }
}
