import Foundation
import Testing

@testable import EngineWire

/// The `armed` event and the `confirmRun` command: what a board and an engine exchange about
/// commit-confirmed runs, read back as written.
@Suite("Armed runs on the wire")
struct ArmedRunsCodingTests {
    @Test("An armed event reads back as written, decided runs with their reason and revert run; a run without a deadline is refused")
    func armedEventRoundTrip() throws {
        let armedAt = Date(timeIntervalSince1970: 1_800_000_000)
        let runs = ArmedRuns(runs: [
            ArmedRun(run: 12, state: .armed, armedAt: armedAt, deadline: armedAt.addingTimeInterval(300),
                     regressions: ["sshd -t: passed → failed: exit status 255"], name: "apt upgrade · 1 to upgrade · confirm within 5m"),
            ArmedRun(run: 9, state: .reverted, armedAt: armedAt, deadline: armedAt.addingTimeInterval(60),
                     decidedAt: armedAt.addingTimeInterval(61), reason: "no confirmation by its deadline", name: "apt upgrade", revertRun: 10),
        ])
        guard case .armed(let read) = try ServerMessage.decode(Array(runs.eventLine.utf8)) else {
            Issue.record("not read as an armed event: \(runs.eventLine)")
            return
        }
        #expect(read == runs)
        #expect(read.newest?.run == 12)
        #expect(ArmedRun.State.reverting.isOpen && !ArmedRun.State.confirmed.isOpen)
        #expect(throws: WireError.self) {
            _ = try ServerMessage.decode(Array(#"{"event":"armed","runs":[{"run":1,"state":"armed"}]}"#.utf8))
        }
    }

    @Test("confirmRun with and without extend reads back; an extension of 0 is refused, and it acts (a watcher may not send it)")
    func confirmRunCommand() throws {
        for command in [WireCommand.confirmRun(run: 12, extend: nil), .confirmRun(run: 12, extend: 600)] {
            guard case .object(let members) = try JSONParser.parse(Array(command.line(requestID: 3).utf8)) else {
                Issue.record("not an object")
                continue
            }
            #expect(try WireCommand(members) == command)
            #expect(command.acts)
        }
        guard case .object(let zero) = try JSONParser.parse(Array(#"{"command":"confirmRun","run":1,"extend":0}"#.utf8)) else { return }
        #expect(throws: WireError.self) { _ = try WireCommand(zero) }
    }

    @Test("checkRun reads back and acts; its reply's said, regressions and reverts read back, a reply without said is refused")
    func checkRunCommand() throws {
        let command = WireCommand.checkRun(run: 12)
        #expect(command.line() == #"{"command":"checkRun","run":12}"#)
        guard case .object(let members) = try JSONParser.parse(Array(command.line(requestID: 4).utf8)) else {
            Issue.record("not an object")
            return
        }
        #expect(try WireCommand(members) == command)
        #expect(command.acts)
        let checked = ChecksRunAgain(said: "run 12: checks run again: site: passed → failed: exit status 1 regressed; it is reverted at once",
                                     regressions: ["site: passed → failed: exit status 1"], reverts: true)
        #expect(try ChecksRunAgain(fields: checked.fields) == checked)
        #expect(throws: WireError.self) { _ = try ChecksRunAgain(fields: ["regressions": .array([])]) }
    }
}
