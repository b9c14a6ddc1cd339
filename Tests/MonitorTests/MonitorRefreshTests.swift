import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// The board's refresh of hosts' apt lists (`P`), on values: the selected host's, or the marked
/// hosts' at most N at a time, the next sent as each refresh job ends, a refused or lost host
/// freeing its place.
@Suite("Monitor refresh of marked hosts")
struct MonitorRefreshTests {
    private static let hosts = ["web1", "web2", "web3", "web4", "web5"]

    private func board(parallel: Int) -> Scenario {
        var scenario = Scenario(width: 120, height: 40)
        scenario.state.rolloutParallel = parallel
        scenario.state.isAttached = true
        _ = scenario.state.handle(.host(.hosts(Self.hosts)))
        for host in Self.hosts {
            _ = scenario.state.handle(.host(.connecting(host)))
            _ = scenario.state.handle(.host(.queueReplaced(host)))
            _ = scenario.state.handle(.host(.queueShown(host)))
        }
        return scenario
    }

    /// `host`'s engine queues the refresh as its job 9, board job `board`, and says so.
    private func queued(_ scenario: inout Scenario, _ host: String, board: Int) -> [MonitorEffect] {
        _ = scenario.state.handle(.host(.jobOrigin(board: board, origin: JobOrigin(host: host, job: 9))))
        _ = scenario.send(.jobQueued(JobDescriptor(id: board, name: "Refresh apt's lists", operation: .install,
                                                   updates: [Update(id: "\(host)-update", title: "apt-get update")],
                                                   stopOnFailure: false, runByDriver: true)))
        return scenario.state.handle(.host(.refreshQueued(host, job: 9)))
    }

    /// Board job `job` runs and ends with `code`; what the board sends then.
    private func finish(_ scenario: inout Scenario, _ job: Int, _ code: OperationResultCode = .succeeded) -> [MonitorEffect] {
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.completeUpdate(job, 0, code)
        let result = InstallationResult.combining([scenario.state.queue.job(job)!.updates[0].result], abortRequested: false)
        return scenario.send(.jobCompleted(job: job, result: result))
    }

    private static func refreshes(_ effects: [MonitorEffect]) -> [String] {
        effects.compactMap { if case .refreshOnHost(let host) = $0 { return host } else { return nil } }
    }

    @Test("no host marked: P refreshes the selected host at once, each P its own, whatever else refreshes")
    func selectedHost() {
        var scenario = board(parallel: 1)
        scenario.press(.home)
        scenario.press(.down)
        #expect(Self.refreshes(scenario.press(.character("P"))) == ["web2"])
        #expect(scenario.state.status?.text.contains("Refreshing apt's lists on web2") == true)
        scenario.press(.down)
        #expect(Self.refreshes(scenario.press(.character("P"))) == ["web3"])
        #expect(scenario.state.refreshBatch == nil)
    }

    @Test("five marked, --parallel 2: two sent, the next as each refresh job ends (failed or not), the header counts; P again while it runs sends nothing")
    func markedTwoAtATime() {
        var scenario = board(parallel: 2)
        scenario.press(.character("M"))
        #expect(Self.refreshes(scenario.press(.character("P"))) == ["web1", "web2"])
        #expect(scenario.screen().contains("refreshing lists 0/5 · 2 at a time"), "\(scenario.screen())")
        #expect(Self.refreshes(scenario.press(.character("P"))).isEmpty)

        // Queued: still refreshing, nothing more sent.
        #expect(Self.refreshes(queued(&scenario, "web1", board: 1)).isEmpty)
        #expect(Self.refreshes(queued(&scenario, "web2", board: 2)).isEmpty)
        // web2's ends first (failed: apt could not reach a mirror): web3 goes.
        #expect(Self.refreshes(finish(&scenario, 2, .failed)) == ["web3"])
        #expect(scenario.screen().contains("refreshing lists 1/5"))
        #expect(Self.refreshes(finish(&scenario, 1)) == ["web4"])
        _ = queued(&scenario, "web3", board: 3)
        // web4's engine refuses: its place goes to web5, its reason is said.
        #expect(Self.refreshes(scenario.state.handle(.host(.refreshRefused("web4", reason: "the engine is shutting down")))) == ["web5"])
        #expect(scenario.state.status?.text == "web4: the engine is shutting down")
        _ = queued(&scenario, "web5", board: 5)
        _ = finish(&scenario, 3)
        _ = finish(&scenario, 5)
        #expect(scenario.state.refreshBatch == nil)
        #expect(scenario.state.status?.text == "Lists refreshed on 3 of 5 hosts; not on web2, web4 (their rows say why)")
        #expect(!scenario.screen().contains("refreshing lists"))
    }

    @Test("every marked host refreshed: said in one line, the header forgets it")
    func allRefreshed() {
        var scenario = board(parallel: 2)
        scenario.press(.home)
        scenario.press(.character("m"))
        scenario.press(.down)
        scenario.press(.character("m"))
        #expect(Self.refreshes(scenario.press(.character("P"))) == ["web1", "web2"])
        _ = queued(&scenario, "web1", board: 1)
        _ = queued(&scenario, "web2", board: 2)
        _ = finish(&scenario, 1)
        _ = finish(&scenario, 2)
        #expect(scenario.state.status?.text == "Lists refreshed on 2 hosts")
        #expect(!scenario.screen().contains("refreshing lists"))
    }

    @Test("a host lost while refreshing frees its place; a marked host stale at P is left out and said")
    func lostHosts() {
        var scenario = board(parallel: 1)
        _ = scenario.state.handle(.host(.unreachable("web5", reason: "ssh: connect to host web5: No route to host",
                                                     retryAt: scenario.now.addingTimeInterval(5))))
        scenario.press(.character("M"))
        #expect(Self.refreshes(scenario.press(.character("P"))) == ["web1"])
        #expect(scenario.state.status?.text.contains("left out, unreachable or silent: web5") == true)
        #expect(scenario.state.refreshBatch?.total == 4)
        let effects = scenario.state.handle(.host(.unreachable("web1", reason: "ssh: Connection reset", retryAt: scenario.now.addingTimeInterval(5))))
        #expect(Self.refreshes(effects) == ["web2"])
    }
}
