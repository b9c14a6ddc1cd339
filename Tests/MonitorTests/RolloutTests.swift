import Testing

@testable import Monitor

/// The rollout as a value machine (`Rollout`), as the board and `apt upgrade --hosts` run it:
/// the order given whatever order the plans come in, at most N at once, the pause after a
/// failure, the unreachable skipped, what a declined or stopped plan leaves.
@Suite("Rollout: the value machine")
struct RolloutTests {
    /// Every job's sight is `queued` but those given.
    private func advance(_ rollout: inout Rollout, _ sights: [Int: RolloutJobSight] = [:],
                         unreachable: Set<String> = []) -> [RolloutStep] {
        rollout.advance(seeing: { sights[$0] ?? .queued }, reachable: { !unreachable.contains($0) })
    }

    @Test("plans in reverse order, one at a time: nothing starts until the first host's plan comes; then in order")
    func orderGivenNotOrderCome() {
        var rollout = Rollout(hosts: ["b1", "b2", "b3"], parallel: 1)
        let heldInReverse = [rollout.planHeld(host: "b3", job: 13), rollout.planHeld(host: "b2", job: 12)]
        #expect(heldInReverse == [true, true])
        rollout.answer(yes: true)
        #expect(advance(&rollout).isEmpty, "b1's plan has not come: nobody after it starts")
        let first = rollout.planHeld(host: "b1", job: 11)
        #expect(first)
        #expect(advance(&rollout) == [.confirm(job: 11)])
        #expect(advance(&rollout, [11: .running]).isEmpty)
        #expect(advance(&rollout, [11: .completed(failed: false)]) == [.confirm(job: 12)])
        #expect(advance(&rollout, [11: .completed(failed: false), 12: .completed(failed: false)]) == [.confirm(job: 13)])
        _ = advance(&rollout, [11: .completed(failed: false), 12: .completed(failed: false), 13: .completed(failed: false)])
        #expect(rollout.isOver && rollout.doneCount == 3)
    }

    @Test("two at a time; a host with nothing to upgrade is out and holds nobody back")
    func parallelAndUpToDate() {
        var rollout = Rollout(hosts: ["a", "b", "c"], parallel: 2)
        let refused = rollout.planRefused(host: "a", reason: "nothing to upgrade", upToDate: true)
        #expect(refused)
        _ = rollout.planHeld(host: "b", job: 2)
        _ = rollout.planHeld(host: "c", job: 3)
        rollout.answer(yes: true)
        #expect(advance(&rollout) == [.confirm(job: 2), .confirm(job: 3)])
        #expect(rollout.runningCount == 2 && rollout.leftCount == 0)
    }

    @Test("a failure with hosts left pauses; resume starts the next; stop declines the rest and the running one goes on")
    func pauseResumeStop() {
        var rollout = Rollout(hosts: ["a", "b", "c"], parallel: 1)
        for (host, job) in [("a", 1), ("b", 2), ("c", 3)] { _ = rollout.planHeld(host: host, job: job) }
        rollout.answer(yes: true)
        #expect(advance(&rollout) == [.confirm(job: 1)])
        #expect(advance(&rollout, [1: .completed(failed: true)]) == [.paused(host: "a")])
        #expect(advance(&rollout, [1: .completed(failed: true)]).isEmpty, "nothing starts while paused")
        let resumedAfter = rollout.resume()
        #expect(resumedAfter == "a")
        #expect(advance(&rollout, [1: .completed(failed: true)]) == [.confirm(job: 2)])
        let stopped = rollout.stop()
        #expect(stopped == [.decline(job: 3)])
        #expect(rollout.runningCount == 1 && rollout.hosts[2].phase == .declined)
        #expect(advance(&rollout, [1: .completed(failed: true), 2: .completed(failed: false)]).isEmpty)
        #expect(rollout.isOver)
    }

    @Test("no declines every held plan, and a plan that comes later when it comes; nothing is left waiting for a yes")
    func declined() {
        var rollout = Rollout(hosts: ["a", "b"], parallel: 1)
        _ = rollout.planHeld(host: "a", job: 1)
        rollout.answer(yes: false)
        #expect(advance(&rollout) == [.decline(job: 1)])
        _ = rollout.planHeld(host: "b", job: 2)
        #expect(advance(&rollout) == [.decline(job: 2)])
        #expect(rollout.isOver && rollout.hosts.allSatisfy { $0.phase == .declined })
    }

    @Test("an unreachable host waits without holding the others back; a started job gone with no end is a failure")
    func unreachableAndGone() {
        var rollout = Rollout(hosts: ["a", "b", "c"], parallel: 1)
        for (host, job) in [("a", 1), ("b", 2), ("c", 3)] { _ = rollout.planHeld(host: host, job: job) }
        rollout.answer(yes: true)
        #expect(advance(&rollout, unreachable: ["a"]) == [.confirm(job: 2)])
        #expect(advance(&rollout, [2: .gone], unreachable: ["a"]) == [.paused(host: "b")])
        #expect(rollout.hosts[1].phase == .failed(job: 2))
        #expect(advance(&rollout, [2: .gone, 3: .unknown], unreachable: ["a"]).isEmpty)
    }

    @Test("a job confirmed elsewhere is started; a held job declined elsewhere (gone) leaves its host declined")
    func elsewhere() {
        var rollout = Rollout(hosts: ["a", "b"], parallel: 1)
        _ = rollout.planHeld(host: "a", job: 1)
        _ = rollout.planHeld(host: "b", job: 2)
        #expect(advance(&rollout, [1: .running, 2: .gone]).isEmpty, "not answered: nothing sent")
        #expect(rollout.hosts[0].phase == .started(job: 1) && rollout.hosts[1].phase == .declined)
    }
}
