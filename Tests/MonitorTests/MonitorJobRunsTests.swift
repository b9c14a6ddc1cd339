import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// The history view's job runs (issue 35 item 5): Tab shows them, `u` on one that can be undone
/// asks the runtime to plan its undo (whose job then asks in the plan dialog), `u` on one that
/// cannot says why and changes nothing.
@Suite("Monitor history: job runs and u")
struct MonitorJobRunsTests {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)

    /// Newest first: run 3 undoable, run 2 changed again by run 3, run 1 undone already.
    static let runs = [
        JobRunRow(id: 3, date: start.addingTimeInterval(7200), kind: "apt", name: "apt upgrade · 2 to upgrade", resultCode: .succeeded,
                  packages: ["lab-app 1.0 → 2.0", "lab-lib 1.0 → 2.0"]),
        JobRunRow(id: 2, date: start.addingTimeInterval(3600), kind: "apt", name: "apt install lab-tool", resultCode: .succeeded,
                  packages: ["lab-tool 1.0 installed"], notUndoableBecause: "run 3 changed lab-lib again: undo run 3 first"),
        JobRunRow(id: 1, date: start, kind: "commands", name: "Tools", resultCode: .failed,
                  notUndoableBecause: "it changed no package"),
    ]

    private func openRuns(_ scenario: inout Scenario) -> [MonitorEffect] {
        scenario.press(.character("h"))
        return scenario.press(.tab)
    }

    private func view(_ scenario: Scenario) -> HistoryView? {
        if case .history(let view)? = scenario.state.overlay { return view }
        return nil
    }

    @Test func tabAsksForTheRunsOnceAndShowsThem() throws {
        var scenario = Scenario.product()
        #expect(Scenario.commands(openRuns(&scenario)) == [.loadJobRuns(limit: HistoryView.rowLimit)])
        #expect(view(scenario)?.mode == .runs)
        #expect(scenario.screen().contains("job runs · loading"))
        #expect(scenario.state.handle(.jobRunsLoaded(Self.runs)).contains(.redraw))
        let screen = scenario.screen()
        #expect(screen.contains("apt upgrade · 2 to upgrade") && screen.contains("3 runs"), "\(screen)")
        #expect(screen.contains("lab-app 1.0 → 2.0, lab-lib 1.0 → 2.0"), "the selected run's packages: \(screen)")
        #expect(Scenario.commands(scenario.press(.tab)).isEmpty)
        #expect(view(scenario)?.mode == .updates)
        #expect(Scenario.commands(scenario.press(.tab)).isEmpty, "the runs are asked for once per opening")
        #expect(view(scenario)?.visibleRuns.count == 3)
    }

    @Test func uOnAnUndoableRunAsksForItsUndoAndClosesTheView() {
        var scenario = Scenario.product()
        _ = openRuns(&scenario)
        _ = scenario.state.handle(.jobRunsLoaded(Self.runs))
        let effects = scenario.press(.character("u"))
        #expect(Scenario.commands(effects) == [.undo(run: 3)])
        #expect(scenario.state.overlay == nil, "the plan dialog comes with the undo's job")
        #expect(scenario.screen().contains("Planning the undo of run 3"))
    }

    @Test func uOnARunThatCannotBeUndoneSaysWhyAndStays() {
        var scenario = Scenario.product()
        _ = openRuns(&scenario)
        _ = scenario.state.handle(.jobRunsLoaded(Self.runs))
        scenario.press(.down)
        #expect(view(scenario)?.selectedRunRow?.id == 2)
        #expect(scenario.screen().contains("not undoable: run 3 changed lab-lib again"))
        let effects = scenario.press(.character("u"))
        #expect(Scenario.commands(effects).isEmpty)
        #expect(view(scenario) != nil)
        #expect(scenario.screen().contains("run 2 cannot be undone: run 3 changed lab-lib again: undo run 3 first"))
    }

    @Test func uInTheUpdatesListPointsToTheRuns() {
        var scenario = Scenario.product()
        scenario.press(.character("h"))
        #expect(Scenario.commands(scenario.press(.character("u"))).isEmpty)
        #expect(scenario.screen().contains("u undoes a job run: Tab shows the runs"))
    }

    @Test func selectionStaysOnTheRunsAndOnThePage() {
        var scenario = Scenario.product()
        _ = openRuns(&scenario)
        let many = (1...60).reversed().map { JobRunRow(id: $0, date: Self.start, kind: "apt", name: "run \($0)", resultCode: .succeeded) }
        _ = scenario.state.handle(.jobRunsLoaded(many))
        let page = HistoryView.runsPage(scenario.state.historyPageSize)
        scenario.press(.end)
        #expect(view(scenario)?.selectedRun == 59)
        #expect(view(scenario)?.runsOffset == 60 - page)
        scenario.press(.up, .pageUp)
        #expect(view(scenario)?.selectedRun == 58 - page)
        scenario.press(.home, .up)
        #expect(view(scenario)?.selectedRun == 0 && view(scenario)?.runsOffset == 0)
        scenario.press(.character("/"))
        scenario.type("run 42")
        #expect(view(scenario)?.visibleRuns.map(\.id) == [42])
        #expect(Scenario.commands(scenario.press(.enter, .character("u"))) == [.undo(run: 42)], "u undoes the filtered selection")
    }

    @Test func unavailableRunsSayWhyAndLateRunsAreIgnored() {
        var scenario = Scenario.product()
        _ = openRuns(&scenario)
        _ = scenario.state.handle(.jobRunsUnavailable("history is off (--no-history)"))
        #expect(scenario.screen().contains("history is off (--no-history)"))
        #expect(scenario.press(.character("u")).isEmpty || scenario.screen().contains("no job run to undo"))
        scenario.press(.escape)
        #expect(scenario.state.handle(.jobRunsLoaded(Self.runs)).isEmpty)
    }

    @Test func runsAt80x24() {
        var scenario = Scenario.product()
        scenario.state.timeZone = TimeZone(identifier: "UTC")!
        _ = openRuns(&scenario)
        _ = scenario.state.handle(.jobRunsLoaded(Self.runs))
        expectSnapshot(scenario.render(), named: "history-runs-80x24")
    }

    @Test func runsFitNarrowTerminals() {
        for (width, height) in [(80, 24), (60, 16), (40, 12)] {
            var scenario = Scenario.product(width: width, height: height)
            scenario.state.timeZone = TimeZone(identifier: "UTC")!
            _ = openRuns(&scenario)
            _ = scenario.state.handle(.jobRunsLoaded(Self.runs))
            let lines = scenario.render().lines
            #expect(lines.count == height)
            #expect(lines.allSatisfy { DisplayWidth.of($0) <= width }, "\(width)x\(height): \(lines)")
            #expect(lines.joined().contains("apt"), "\(width)x\(height)")
        }
    }
}
