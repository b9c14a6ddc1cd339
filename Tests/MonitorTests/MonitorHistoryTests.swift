import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

@Suite("Monitor history: ETAs and the history view")
struct MonitorHistoryTests {
    // MARK: - ETAs (the scenario's clock is the fake clock)

    @Test func etaBeforeProgressIsTheMedianLessElapsed() throws {
        var scenario = Scenario()
        _ = scenario.state.handle(.historicalDurations(["u1-0": 60]))
        let job = scenario.queue("Tools", ["jq"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.advance(10)
        var current = try #require(scenario.state.queue.job(job))
        #expect(scenario.state.etaSeconds(job: current, index: 0) == 50)
        #expect(scenario.state.etaSeconds(job: current) == 50)
        scenario.progress(job, 0, nil, message: "thinking")
        current = try #require(scenario.state.queue.job(job))
        #expect(scenario.state.etaSeconds(job: current, index: 0) == 50, "indeterminate updates use the median too")
        scenario.advance(55)
        current = try #require(scenario.state.queue.job(job))
        #expect(scenario.state.etaSeconds(job: current, index: 0) == nil, "overdue with no live rate: no ETA rather than 0")
    }

    @Test func withoutHistoryNothingChanges() throws {
        var scenario = Scenario()
        let job = scenario.queue("Tools", ["jq"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.advance(10)
        let current = try #require(scenario.state.queue.job(job))
        #expect(scenario.state.etaSeconds(job: current, index: 0) == nil)
    }

    @Test func liveRateAndHistoryBlendByPercentDone() throws {
        var scenario = Scenario()
        _ = scenario.state.handle(.historicalDurations(["u1-0": 100]))
        let job = scenario.queue("Tools", ["jq"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        for step in 1...5 {
            scenario.now = scenario.now.addingTimeInterval(1)
            scenario.progress(job, 0, Double(step) * 10)
        }
        let current = try #require(scenario.state.queue.job(job))
        let eta = try #require(scenario.state.etaSeconds(job: current, index: 0))
        // Live: 50 % left at 10 %/s = 5 s; history: 100 s − 5 s = 95 s; each weighs one half.
        #expect(abs(eta - 50) < 0.001, "\(eta)")
    }

    @Test func jobETAAddsTheMediansOfUpdatesNotStarted() throws {
        var scenario = Scenario()
        _ = scenario.state.handle(.historicalDurations(["u1-0": 20, "u1-1": 30, "u1-2": 40]))
        let job = scenario.queue("Tools", ["jq", "htop", "vim"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.advance(5)
        let current = try #require(scenario.state.queue.job(job))
        let eta = try #require(scenario.state.etaSeconds(job: current))
        #expect(abs(eta - (15 + 30 + 40)) < 0.001, "\(eta)")
    }

    @Test func queuedJobsGetAnEstimatedStart() throws {
        var scenario = Scenario(width: 120, height: 30)
        _ = scenario.state.handle(.historicalDurations(["u1-0": 60, "u2-0": 30, "u3-0": 10]))
        let first = scenario.queue("First", ["a"])
        let second = scenario.queue("Second", ["b"])
        let third = scenario.queue("Third", ["c"])
        let unknown = scenario.queue("Unknown", ["d"])
        let last = scenario.queue("Last", ["e"])
        scenario.startJob(first)
        scenario.startUpdate(first, 0)
        scenario.advance(20)
        let starts = scenario.state.queuedStartEstimates()
        #expect(starts == [second: 40, third: 70, unknown: 80], "the job after one without medians is not placed: \(starts)")
        #expect(starts[last] == nil)
        let screen = scenario.screen()
        #expect(screen.contains("in ~40s") && screen.contains("in ~1m10s"), "\(screen)")
        scenario.press(.down)
        #expect(scenario.screen().contains("starts in ~40s"), "the selected queued job's title says when")
    }

    @Test func twoRunningJobsMeanTwoSlots() {
        var scenario = Scenario()
        _ = scenario.state.handle(.historicalDurations(["u1-0": 50, "u2-0": 20, "u3-0": 100, "u4-0": 100]))
        let jobs = ["A", "B", "C", "D"].map { scenario.queue($0, ["x"]) }
        for job in jobs.prefix(2) {
            scenario.startJob(job)
            scenario.startUpdate(job, 0)
        }
        scenario.advance(10)
        // Slots free at 40 s (A) and 10 s (B): C takes B's at 10 s, D takes A's at 40 s.
        #expect(scenario.state.queuedStartEstimates() == [jobs[2]: 10, jobs[3]: 40])
    }

    // MARK: - The history view

    static let rows: [HistoryRow] = (0..<40).map { number in
        let code: OperationResultCode = number % 7 == 3 ? .failed : number % 11 == 5 ? .aborted : .succeeded
        return HistoryRow(
            date: Scenario.epoch.addingTimeInterval(-Double(number) * 3700), resultCode: code, updateID: "pkg-\(number)",
            title: number == 2 ? "OpenSSL 3.0.15\u{1B}[2J" : "Package \(number) 1.\(number)", jobName: number % 2 == 0 ? "Security" : "Tools",
            duration: .milliseconds(Int64(number) * 4321 + 300), reason: code == .failed ? "exited with status 1" : nil)
    }

    @Test func hOpensTheViewAndAsksForRows() {
        var scenario = Scenario.product()
        let effects = scenario.press(.character("h"))
        #expect(Scenario.commands(effects) == [.loadHistory(limit: HistoryView.rowLimit)])
        guard case .history(let view)? = scenario.state.overlay else {
            Issue.record("no history overlay")
            return
        }
        #expect(view.content == .loading)
        #expect(scenario.state.handle(.historyLoaded(Self.rows)).contains(.redraw))
        #expect(historyView(scenario)?.visibleRows.count == 40)
    }

    @Test func rowsScrollWithinBounds() throws {
        var scenario = Scenario.product()
        scenario.press(.character("h"))
        _ = scenario.state.handle(.historyLoaded(Self.rows))
        let page = scenario.state.historyPageSize
        #expect(page == 18, "80×24: 22 body rows less borders, headings and hints")
        scenario.press(.down, .down)
        #expect(historyView(scenario)?.offset == 2)
        scenario.press(.up, .up, .up)
        #expect(historyView(scenario)?.offset == 0)
        scenario.press(.pageDown)
        #expect(historyView(scenario)?.offset == page)
        scenario.press(.pageDown, .pageDown)
        #expect(historyView(scenario)?.offset == 40 - page, "the last page stays full")
        scenario.press(.home)
        #expect(historyView(scenario)?.offset == 0)
        scenario.press(.end)
        #expect(historyView(scenario)?.offset == 40 - page)
        #expect(scenario.screen().contains("pkg-39"))
    }

    @Test func slashFiltersWithinTheView() {
        var scenario = Scenario.product()
        scenario.press(.character("h"))
        _ = scenario.state.handle(.historyLoaded(Self.rows))
        scenario.press(.end, .character("/"))
        scenario.type("exited")
        #expect(historyView(scenario)?.visibleRows.map(\.updateID) == ["pkg-3", "pkg-10", "pkg-17", "pkg-24", "pkg-31", "pkg-38"])
        #expect(historyView(scenario)?.offset == 0)
        scenario.press(.backspace, .enter)
        #expect(historyView(scenario)?.isEditingFilter == false)
        #expect(historyView(scenario)?.filterText == "exite")
        #expect(scenario.screen().contains("6/40 match"))
        scenario.type("/")
        scenario.type("q")
        #expect(historyView(scenario)?.filterText == "exiteq", "q types while editing")
        scenario.press(.escape)
        #expect(historyView(scenario)?.visibleRows.count == 40, "Esc in the filter clears it and keeps the view")
        #expect(scenario.state.filterText.isEmpty, "the jobs filter is untouched")
    }

    @Test func escHAndQClose() {
        for key in [Key.escape, .character("h"), .character("q")] {
            var scenario = Scenario.product()
            scenario.press(.character("h"))
            _ = scenario.state.handle(.historyLoaded(Self.rows))
            let effects = scenario.press(key)
            #expect(scenario.state.overlay == nil)
            #expect(Scenario.commands(effects).isEmpty, "q closes the view, it does not quit")
        }
    }

    @Test func lateRowsAfterClosingAreIgnored() {
        var scenario = Scenario.product()
        scenario.press(.character("h"), .escape)
        #expect(scenario.state.handle(.historyLoaded(Self.rows)).isEmpty)
        #expect(scenario.state.overlay == nil)
    }

    @Test func unavailableHistorySaysWhy() {
        var scenario = Scenario.product()
        scenario.press(.character("h"))
        _ = scenario.state.handle(.historyUnavailable("history is off: --no-history"))
        #expect(scenario.screen().contains("history is off: --no-history"))
    }

    @Test func helpListsH() {
        #expect(MonitorState.keyHelp.contains { $0.keys == "h" })
        var scenario = Scenario.product()
        scenario.press(.character("?"))
        #expect(scenario.screen().contains("install history"))
    }

    @Test func historyViewAt80x24() {
        var scenario = Scenario.product()
        scenario.state.timeZone = TimeZone(identifier: "UTC")!
        scenario.press(.character("h"))
        _ = scenario.state.handle(.historyLoaded(Self.rows))
        scenario.press(.down)
        let buffer = scenario.render()
        expectSnapshot(buffer, named: "history-80x24")
        #expect(!buffer.lines.joined().contains("\u{1B}"), "titles are sanitized")
    }

    /// A new monitor leaves the machine's time zone (ICU's zone data) until the history view
    /// draws a date, then shows dates in it.
    @Test func theMachinesTimeZoneWaitsForTheHistoryView() {
        var scenario = Scenario.product()
        #expect(scenario.state.timeZone == nil)
        scenario.press(.character("h"))
        _ = scenario.state.handle(.historyLoaded(Self.rows))
        let local = HistoryColumns.dateText(Self.rows[0].date!, timeZone: .current, withYear: false)
        #expect(scenario.render().lines.contains { $0.contains(local) })
    }

    private func historyView(_ scenario: Scenario) -> HistoryView? {
        if case .history(let view)? = scenario.state.overlay { return view }
        return nil
    }
}
