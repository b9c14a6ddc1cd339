import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

@Suite("Monitor: a batch of engine events (a snapshot) is the same as the events one by one")
struct MonitorBatchTests {
    @Test(arguments: [(80, 24), (120, 40), (40, 12)])
    func aBatchGivesTheSameScreenAsSingleEvents(width: Int, height: Int) throws {
        // The events that rebuild a queue with finished, running and queued jobs and output.
        let events = Scenario.product(width: width, height: height).state.queue.replayEvents(time: Scenario.epoch)
        try #require(events.count > 20)

        var single = Scenario(width: width, height: height)
        for event in events { _ = single.state.handle(.engine(event)) }
        var batched = Scenario(width: width, height: height)
        let effects = batched.state.handle(.engineEvents(events))

        #expect(effects.contains(.redraw))
        #expect(batched.state.selectedJobID == single.state.selectedJobID)
        #expect(batched.state.selectedUpdateIndex == single.state.selectedUpdateIndex)
        #expect(batched.state.queue == single.state.queue)
        #expect(batched.screen() == single.screen())
    }

    @Test func anEmptyBatchOnlyRedraws() {
        var scenario = Scenario()
        #expect(scenario.state.handle(.engineEvents([])) == [.redraw])
    }
}
