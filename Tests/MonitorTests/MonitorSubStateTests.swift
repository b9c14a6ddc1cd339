import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// The small values `MonitorState` is made of, each on its own.
@Suite("Monitor sub-states")
struct MonitorSubStateTests {
    @Test func textInputEditsKeepsAndClears() {
        var input = TextInput()
        input.beginEditing()
        #expect(input.edit(.character("a")) == true)
        #expect(input.edit(.character("b")) == true)
        #expect(input.edit(.backspace) == true)
        #expect(input.edit(.down) == nil, "an arrow is not for the text")
        #expect(input.text == "a" && input.isEditing)
        #expect(input.edit(.enter) == false)
        #expect(input.text == "a" && !input.isEditing, "Enter keeps the text")
        input.beginEditing()
        #expect(input.edit(.escape) == true)
        #expect(input.text.isEmpty && !input.isEditing, "Esc clears it")
        #expect(input.edit(.backspace) == false, "nothing to delete")
    }

    @Test func selectionFollowsTheRunningUpdateUntilPickedByHand() {
        var selection = MonitorSelection()
        selection.select(job: 1, update: 0)
        selection.updateStarted(job: 1, index: 1)
        #expect(selection.updateIndex == 1)
        selection.updateStarted(job: 2, index: 5)
        #expect(selection.updateIndex == 1, "another job's update does not move the selection")
        selection.pick(update: 0)
        selection.updateStarted(job: 1, index: 2)
        #expect(selection.updateIndex == 0 && !selection.followsRunningUpdate)
        selection.select(job: 1, update: 2)
        #expect(selection.followsRunningUpdate, "selecting a job follows again")
    }

    @Test func scrolledOutputStaysStillAsLinesArrive() {
        var selection = MonitorSelection()
        selection.scrollOutput(by: -3)
        #expect(selection.outputScroll == 3)
        selection.outputGrew(lines: 100, page: 10)
        #expect(selection.outputScroll == 4)
        selection.outputGrew(lines: 12, page: 10)
        #expect(selection.outputScroll == 2, "stops at the oldest line kept")
        selection.scrollOutput(by: Int.max)
        selection.outputGrew(lines: 100, page: 10)
        #expect(selection.outputScroll == 0, "following the newest line stays there")
        selection.scrollOutput(by: Int.min)
        selection.clampOutputScroll(lines: 30, page: 10)
        #expect(selection.outputScroll == 20, "Home goes to the oldest line")
    }

    @Test func estimatesForgetAJobsRatesWhenItCompletes() {
        var estimates = MonitorEstimates()
        let start = Date(timeIntervalSince1970: 1_000)
        let first = UpdateKey(job: 1, index: 0)
        let other = UpdateKey(job: 2, index: 0)
        estimates.updateStarted(first, at: start)
        estimates.record(50, for: other, startedAt: start, at: start.addingTimeInterval(10))
        estimates.record(50, for: first, startedAt: nil, at: start.addingTimeInterval(10))
        #expect(estimates.liveRemaining(first, at: start.addingTimeInterval(10)).map { abs($0 - 10) < 0.5 } == true)
        estimates.jobEnded(1)
        #expect(!estimates.hasRate(first) && estimates.hasRate(other))
        estimates.updateEnded(other)
        #expect(!estimates.hasRate(other))
    }

    @Test func fullOutputScrollStaysWithinTheLinesAndClosesOnEscape() {
        #expect(MonitorOverlay.fullOutputScroll(0, after: .pageUp, lines: 25, page: 10) == 10)
        #expect(MonitorOverlay.fullOutputScroll(10, after: .pageUp, lines: 25, page: 10) == 15)
        #expect(MonitorOverlay.fullOutputScroll(3, after: .end, lines: 25, page: 10) == 0)
        #expect(MonitorOverlay.fullOutputScroll(0, after: .down, lines: 25, page: 10) == 0)
        #expect(MonitorOverlay.fullOutputScroll(3, after: .escape, lines: 25, page: 10) == nil)
    }
}
