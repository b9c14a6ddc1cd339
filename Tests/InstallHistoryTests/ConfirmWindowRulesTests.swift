import Foundation
import InstallEngine
@testable import InstallHistory
import Testing

/// The rules of a commit-confirmed window (issue 57) on values, with a manual clock: who wins a
/// confirmation racing the deadline, what an extension does, when a revert is due, and what a
/// settled or a claimed window refuses.
@Suite("Commit-confirmed window rules")
struct ConfirmWindowRulesTests {
    private static let armedAt = Date(timeIntervalSince1970: 1_800_000_000)
    private static let deadline = armedAt.addingTimeInterval(60)

    private static func window(_ state: ConfirmWindowState = .armed, regressions: [HealthRegression] = [], revertOnRegression: Bool = false)
        -> ConfirmWindow {
        ConfirmWindow(run: 7, state: state, armedAt: armedAt, deadline: deadline, revertOnRegression: revertOnRegression,
                      regressions: regressions, reason: state == .armed ? nil : "why")
    }

    private static func at(_ seconds: Double) -> Date { armedAt.addingTimeInterval(seconds) }

    @Test("Before the deadline a confirmation wins; at or after it the revert does, for the confirmation and the tick alike")
    func deadlineDecidesTheRace() {
        let armed = Self.window()
        #expect(ConfirmWindowRules.decide(.confirm, on: armed, at: Self.at(59.999), reverterAlive: false) == .confirmed)
        #expect(ConfirmWindowRules.decide(.revertIfDue, on: armed, at: Self.at(59.999), reverterAlive: false) == .wait(until: Self.deadline))
        for late in [60.0, 61, 3600] {
            guard case .refused(let why) = ConfirmWindowRules.decide(.confirm, on: armed, at: Self.at(late), reverterAlive: false) else {
                Issue.record("a confirmation at +\(late)s must be refused")
                continue
            }
            #expect(why.hasPrefix("too late: run 7's deadline passed at "), "\(why)")
            guard case .revert(let reason) = ConfirmWindowRules.decide(.revertIfDue, on: armed, at: Self.at(late), reverterAlive: false) else {
                Issue.record("the revert is due at +\(late)s")
                continue
            }
            #expect(reason.hasPrefix("no confirmation by its deadline"), "\(reason)")
        }
    }

    @Test("An extension moves the deadline to that long from now, never earlier, and is refused once the deadline passed")
    func extensions() {
        let armed = Self.window()
        #expect(ConfirmWindowRules.decide(.extend(seconds: 300), on: armed, at: Self.at(30), reverterAlive: false)
                == .extended(until: Self.at(330)))
        #expect(ConfirmWindowRules.decide(.extend(seconds: 5), on: armed, at: Self.at(30), reverterAlive: false)
                == .extended(until: Self.deadline), "a shorter extension keeps the deadline")
        guard case .refused = ConfirmWindowRules.decide(.extend(seconds: 300), on: armed, at: Self.at(60), reverterAlive: false) else {
            Issue.record("an extension at the deadline must be refused")
            return
        }
    }

    @Test("A regression reverts at once only when the window asked for it; otherwise the deadline stands")
    func regressions() {
        let regression = HealthRegression(check: "false", before: "passed", after: "failed: exit status 1")
        let asked = Self.window(regressions: [regression], revertOnRegression: true)
        #expect(ConfirmWindowRules.decide(.revertIfDue, on: asked, at: Self.at(1), reverterAlive: false)
                == .revert(because: "a check regressed: false: passed → failed: exit status 1"))
        let notAsked = Self.window(regressions: [regression], revertOnRegression: false)
        #expect(ConfirmWindowRules.decide(.revertIfDue, on: notAsked, at: Self.at(1), reverterAlive: false) == .wait(until: Self.deadline))
        #expect(ConfirmWindowRules.decide(.confirm, on: notAsked, at: Self.at(1), reverterAlive: false) == .confirmed,
                "the operator may keep a run whose check regressed")
    }

    @Test("In words: armed with its deadline, or past it with the revert due and who does it; reverted with its undo's run and why")
    func text() {
        var armed = Self.window()
        #expect(ConfirmWindowText.line(armed, now: Self.at(1))
                == "armed: confirm by 2027-01-15 08:01:00 UTC (installtop confirm --run 7), or it is reverted")
        #expect(ConfirmWindowText.line(armed, now: Self.at(60))
                == "armed, its deadline 2027-01-15 08:01:00 UTC passed: the revert is due (installtop apt revert 7, or an engine recording into this history)")
        armed.state = .reverted
        armed.decidedAt = Self.at(61)
        armed.revertRun = 8
        armed.reason = "no confirmation by its deadline 2027-01-15 08:01:00 UTC"
        #expect(ConfirmWindowText.line(armed) == "reverted at 2027-01-15 08:01:01 UTC by run 8: no confirmation by its deadline 2027-01-15 08:01:00 UTC")
    }

    @Test("Settled windows refuse everything; a revert under way is left to its live reverter and taken over from a dead one")
    func settledAndClaimed() {
        for state in [ConfirmWindowState.confirmed, .reverted, .expired] {
            for action in [ConfirmAction.confirm, .extend(seconds: 10), .revertIfDue, .revertNow] {
                guard case .refused = ConfirmWindowRules.decide(action, on: Self.window(state), at: Self.at(1), reverterAlive: false) else {
                    Issue.record("\(state) must refuse \(action)")
                    continue
                }
            }
        }
        let reverting = Self.window(.reverting)
        guard case .refused = ConfirmWindowRules.decide(.revertIfDue, on: reverting, at: Self.at(90), reverterAlive: true) else {
            Issue.record("a live reverter keeps its claim")
            return
        }
        guard case .refused = ConfirmWindowRules.decide(.confirm, on: reverting, at: Self.at(90), reverterAlive: false) else {
            Issue.record("a revert under way cannot be confirmed away")
            return
        }
        #expect(ConfirmWindowRules.decide(.revertIfDue, on: reverting, at: Self.at(90), reverterAlive: false) == .revert(because: "why"))
        #expect(ConfirmWindowRules.decide(.revertNow, on: Self.window(), at: Self.at(1), reverterAlive: false)
                == .revert(because: "asked by the operator"))
    }
}
