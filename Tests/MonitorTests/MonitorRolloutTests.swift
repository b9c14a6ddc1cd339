import EngineWire
import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// The board's marks and rollout (`m`, `M`, `U`, `X`), on values with a manual clock: the
/// plans' dialog from the held jobs, y for all or per host, at most N hosts started, the pause
/// after a failure, quitting with hosts left.
@Suite("Monitor rollout")
struct MonitorRolloutTests {
    private static let hosts = ["web1", "web2", "web3", "web4"]

    /// The board of `hosts`, all connected, a rollout running `parallel` at once.
    private func board(_ hosts: [String] = Self.hosts, parallel: Int = 2, height: Int = 40) -> Scenario {
        var scenario = Scenario(width: 110, height: height)
        scenario.state.rolloutParallel = parallel
        scenario.state.isAttached = true
        _ = scenario.state.handle(.host(.hosts(hosts)))
        for host in hosts {
            _ = scenario.state.handle(.host(.connecting(host)))
            _ = scenario.state.handle(.host(.queueReplaced(host)))
        }
        return scenario
    }

    /// Moves the selection to `host`'s row.
    private func select(_ scenario: inout Scenario, _ host: String) {
        scenario.press(.home)
        while scenario.state.selectedHost != host, scenario.state.selectedHost != nil {
            let before = scenario.state.selectedHost
            scenario.press(.down)
            if scenario.state.selectedHost == before { return }
        }
    }

    /// `host`'s engine queues its planned upgrade as board job `board`, held for a yes, with
    /// `changes` (as the link posts it: the origin, then the job).
    private func held(_ scenario: inout Scenario, _ host: String, board: Int, summary: String = "1 to upgrade", full: Bool = false,
                      _ changes: [PackageChange] = [PackageChange(package: "jq", action: .upgrade, oldVersion: "1.6", newVersion: "1.7")]) -> [MonitorEffect] {
        _ = scenario.state.handle(.host(.jobOrigin(board: board, origin: JobOrigin(host: host, job: 1))))
        let updates = changes.map { Update(id: "\(host)-\($0.package)", title: $0.package, package: $0) }
        return scenario.send(.jobQueued(JobDescriptor(id: board, name: "\(Rollout.jobName(full: full)) · \(summary)", operation: .install, updates: updates,
                                                      stopOnFailure: false, awaitsConfirmation: true, runByDriver: true)))
    }

    /// Marks `hosts`, presses U and brings each host's held plan (board jobs 1, 2, …).
    private func plan(_ scenario: inout Scenario, _ hosts: [String]) {
        for host in hosts {
            select(&scenario, host)
            scenario.press(.character("m"))
        }
        let effects = Scenario.commands(scenario.press(.character("U")))
        #expect(effects == hosts.map { .upgradeOnHost(host: $0, full: false, confirmSeconds: nil) })
        for (index, host) in hosts.enumerated() { _ = held(&scenario, host, board: index + 1) }
    }

    /// Runs board job `job` to its end, its update `code`.
    private func finish(_ scenario: inout Scenario, _ job: Int, _ code: OperationResultCode) -> [MonitorEffect] {
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.completeUpdate(job, 0, code)
        let result = InstallationResult.combining([scenario.state.queue.job(job)!.updates[0].result], abortRequested: false)
        return Scenario.commands(scenario.send(.jobCompleted(job: job, result: result)))
    }

    @Test("m marks the selected host (a glyph on its row, the count in the header), M marks those shown or clears; marks outlive a reconnect")
    func marks() {
        var scenario = board()
        select(&scenario, "web2")
        scenario.press(.character("m"))
        #expect(scenario.state.board?.marked == ["web2"])
        let screen = scenario.screen()
        #expect(screen.contains("▸●web2"), "\(screen)")
        #expect(!screen.contains("▸●web1"))
        #expect(screen.contains("1 marked"))
        scenario.press(.character("m"))
        #expect(scenario.state.board?.marked == [])
        #expect(scenario.screen().split(separator: "\n").first?.contains("marked") == false)

        scenario.press(.character("M"))
        #expect(scenario.state.board?.marked == Set(Self.hosts))
        #expect(scenario.screen().contains("4 marked"))
        scenario.press(.character("M"))
        #expect(scenario.state.board?.marked == [])

        select(&scenario, "web3")
        scenario.press(.character("m"))
        _ = scenario.state.handle(.host(.unreachable("web3", reason: "ssh: Connection refused", retryAt: scenario.now.addingTimeInterval(1))))
        scenario.advance(1)
        _ = scenario.state.handle(.host(.connecting("web3")))
        _ = scenario.state.handle(.host(.queueReplaced("web3")))
        _ = scenario.state.handle(.host(.queueShown("web3")))
        #expect(scenario.state.board?.marked == ["web3"])
        #expect(scenario.screen().contains("▸●web3"))
        #expect(scenario.state.keyHelp.contains { $0.keys == "m" } && scenario.state.keyHelp.contains { $0.keys == "U" })
    }

    @Test("U sends each marked host an upgrade; the one dialog shows each plan: counts, removals first in red, Essential named")
    func dialogFromHeldJobs() {
        var scenario = board()
        for host in ["web1", "web3", "web4"] {
            select(&scenario, host)
            scenario.press(.character("m"))
        }
        #expect(Scenario.commands(scenario.press(.character("U"))) == [.upgradeOnHost(host: "web1", full: false, confirmSeconds: nil), .upgradeOnHost(host: "web3", full: false, confirmSeconds: nil),
                                                                       .upgradeOnHost(host: "web4", full: false, confirmSeconds: nil)])
        #expect(scenario.state.overlay == .rollout)
        #expect(scenario.screen().contains("web1 · planning…"))
        #expect(scenario.screen().contains("2 at a time"))
        #expect(scenario.screen().contains("no new host starts until you say so"))

        let web1 = held(&scenario, "web1", board: 1, summary: "1 to upgrade · 1 to remove · 1.2 MB to download", [
            PackageChange(package: "perl-base", action: .upgrade, oldVersion: "5.36.0-7", newVersion: "5.36.0-7+deb12u2", essential: true),
            PackageChange(package: "oldlib", action: .remove, oldVersion: "1.0"),
        ])
        // Held for the dialog, not asked about on its own.
        #expect(Scenario.commands(web1).isEmpty)
        #expect(scenario.state.overlay == .rollout)
        _ = held(&scenario, "web3", board: 2, summary: "0 to upgrade", [])
        _ = scenario.state.handle(.host(.upgradeRefused("web4", reason: "job 1 (apt upgrade): nothing to do", upToDate: true)))
        let screen = scenario.screen()
        #expect(screen.contains("[ ] web4 · up to date, nothing to upgrade"), "\(screen)")
        #expect(screen.contains("[x] web1 · 1 to upgrade · 1 to remove · 1.2 MB to download"), "\(screen)")
        #expect(screen.contains("[x] web3 · nothing to upgrade"), "\(screen)")
        let lines = screen.split(separator: "\n")
        let removal = lines.firstIndex { $0.contains("remove") && $0.contains("oldlib") }
        let upgrade = lines.firstIndex { $0.contains("upgrade") && $0.contains("perl-base 5.36.0-7") }
        #expect(removal != nil && upgrade != nil && removal! < upgrade!, "\(screen)")
        #expect(lines[upgrade!].contains("essential"))
        // The removal's word is drawn in the failure colour.
        let buffer = scenario.render()
        let row = removal!
        let column = Array(String(lines[row])).firstIndex(of: "r") ?? 0
        #expect(buffer.style(atX: column, y: row) == Themes.default[.failed], "\(lines[row])")
    }

    @Test("A host's plan says what the upgrade holds back, as its row counts it, and that D upgrades fully")
    func planSaysWhatItHoldsBack() {
        var scenario = board()
        let snapshot = PendingSnapshot(computedAt: scenario.now, packages: [PendingPackage(name: "jq", oldVersion: "1.6", newVersion: "1.7", origin: "Debian:12/stable")],
                                       heldBack: [HeldBackPackage(name: "trialnew", installedVersion: "1.0", availableVersion: "2.0",
                                                                  reason: .needsNewPackages(["trialdep"]))])
        _ = scenario.state.handle(.host(.pending("web2", snapshot, computing: false)))
        select(&scenario, "web2")
        scenario.press(.character("m"))
        _ = scenario.press(.character("U"))
        _ = held(&scenario, "web2", board: 1)
        let screen = scenario.screen()
        #expect(screen.contains("holds back trialnew (needs new packages: trialdep); D upgrades fully"), "\(screen)")
    }

    @Test("y for all: the first two start; as one ends the next starts, in order")
    func yesAllAtMostN() {
        var scenario = board()
        plan(&scenario, ["web1", "web2", "web3"])
        #expect(Scenario.commands(scenario.press(.character("y"))) == [.command(.confirm(job: 1)), .command(.confirm(job: 2))])
        #expect(scenario.screen().contains("rollout 0/3 done · 2 at a time"))
        scenario.startJob(1)
        #expect(finish(&scenario, 2, .succeeded) == [.command(.confirm(job: 3))])
        #expect(finish(&scenario, 1, .succeeded).isEmpty)
        #expect(finish(&scenario, 3, .succeeded).isEmpty)
        #expect(scenario.state.rollout?.isOver == true)
        #expect(!scenario.screen().contains("rollout"))
    }

    @Test("one at a time, the first host's plan slowest: y before it comes starts nothing; it starts first when it comes, then the next")
    func orderWhateverThePlansOrder() {
        var scenario = board(parallel: 1)
        for host in ["web1", "web2"] {
            select(&scenario, host)
            scenario.press(.character("m"))
        }
        #expect(Scenario.commands(scenario.press(.character("U"))) == [.upgradeOnHost(host: "web1", full: false, confirmSeconds: nil), .upgradeOnHost(host: "web2", full: false, confirmSeconds: nil)])
        // web2's plan comes first; the operator says yes while web1's is still being made.
        _ = held(&scenario, "web2", board: 1)
        #expect(Scenario.commands(scenario.press(.character("y"))).isEmpty, "web2 must not start before web1")
        #expect(Scenario.commands(held(&scenario, "web1", board: 2)) == [.command(.confirm(job: 2))])
        #expect(finish(&scenario, 2, .succeeded) == [.command(.confirm(job: 1))])
    }

    @Test("marking moved the selection, yet once the plans are taken the view follows the host that runs, until the operator moves")
    func viewFollowsTheRunningHost() {
        var scenario = board(parallel: 1)
        for host in Self.hosts { _ = scenario.state.handle(.host(.queueShown(host))) }
        plan(&scenario, ["web1", "web2", "web3"])
        #expect(!scenario.state.selection.followsWork, "moving to mark stopped following")
        #expect(Scenario.commands(scenario.press(.character("y"))) == [.command(.confirm(job: 1))])
        #expect(scenario.screen().contains("the view follows the running host"))
        scenario.startJob(1)
        #expect(scenario.state.selectedHost == "web1" && scenario.state.selectedJobID == 1)
        #expect(finish(&scenario, 1, .succeeded) == [.command(.confirm(job: 2))])
        scenario.startJob(2)
        #expect(scenario.state.selectedHost == "web2" && scenario.state.selectedJobID == 2)
        scenario.press(.home)
        #expect(!scenario.state.selection.followsWork, "a move on purpose stops it")
    }

    @Test("D: a full upgrade of the marked hosts, its plans in the same dialog with the removal first, then as U's")
    func fullUpgrade() {
        var scenario = board()
        for host in ["web1", "web2"] {
            select(&scenario, host)
            scenario.press(.character("m"))
        }
        #expect(Scenario.commands(scenario.press(.character("D"))) == [.upgradeOnHost(host: "web1", full: true, confirmSeconds: nil), .upgradeOnHost(host: "web2", full: true, confirmSeconds: nil)])
        _ = held(&scenario, "web1", board: 1, summary: "1 to upgrade, 1 to install, 1 to remove", full: true, [
            PackageChange(package: "linux-image-6.1.0-28-amd64", action: .install, newVersion: "6.1.119-1"),
            PackageChange(package: "linux-image-amd64", action: .upgrade, oldVersion: "6.1.115-1", newVersion: "6.1.119-1"),
            PackageChange(package: "linux-image-6.1.0-25-amd64", action: .remove, oldVersion: "6.1.106-3"),
        ])
        _ = held(&scenario, "web2", board: 2, full: true)
        let screen = scenario.screen()
        #expect(screen.contains("(apt full-upgrade)?"), "\(screen)")
        let removal = screen.range(of: "linux-image-6.1.0-25-amd64"), install = screen.range(of: "linux-image-6.1.0-28-amd64")
        #expect(removal != nil && install != nil && removal!.lowerBound < install!.lowerBound, "removals first: \(screen)")
        #expect(scenario.state.rollout?.hosts.map(\.job) == [1, 2], "both plans taken by the full upgrade's rollout")
        #expect(Scenario.commands(scenario.press(.character("y"))) == [.command(.confirm(job: 1)), .command(.confirm(job: 2))])
    }

    @Test("per host: Space leaves the selected host out (its job declined), y starts the others")
    func perHost() {
        var scenario = board()
        plan(&scenario, ["web1", "web2", "web3"])
        scenario.press(.down, .character(" "))
        #expect(scenario.screen().contains("[ ] web2"))
        let effects = Scenario.commands(scenario.press(.character("y")))
        #expect(effects == [.command(.decline(job: 2)), .command(.confirm(job: 1)), .command(.confirm(job: 3))])
    }

    @Test("n declines every plan; a plan that comes after it is declined when it comes")
    func noDeclinesAll() {
        var scenario = board()
        for host in ["web1", "web2"] {
            select(&scenario, host)
            scenario.press(.character("m"))
        }
        scenario.press(.character("U"))
        _ = held(&scenario, "web1", board: 1)
        #expect(Scenario.commands(scenario.press(.escape)) == [.command(.decline(job: 1))])
        #expect(Scenario.commands(held(&scenario, "web2", board: 2)) == [.command(.decline(job: 2))])
        #expect(scenario.state.rollout?.hosts.allSatisfy { $0.phase == .declined } == true)
    }

    @Test("after a host fails no new host starts, the running one goes on; U continues; X would stop")
    func pauseAfterFailure() {
        var scenario = board()
        plan(&scenario, ["web1", "web2", "web3", "web4"])
        scenario.press(.character("y"))
        #expect(finish(&scenario, 1, .failed).isEmpty)
        #expect(scenario.screen().contains("rollout paused: web1 failed — U continues, X stops"), "\(scenario.screen())")
        #expect(scenario.state.rolloutWord(ofJob: 3) == "paused")
        // The running one ends: still no start.
        #expect(finish(&scenario, 2, .succeeded).isEmpty)
        #expect(scenario.state.rollout?.runningCount == 0)
        #expect(Scenario.commands(scenario.press(.character("U"))) == [.command(.confirm(job: 3)), .command(.confirm(job: 4))])
        #expect(!scenario.screen().contains("paused"))

        var stopped = board()
        plan(&stopped, ["web1", "web2", "web3", "web4"])
        stopped.press(.character("y"))
        #expect(finish(&stopped, 1, .failed).isEmpty)
        #expect(Scenario.commands(stopped.press(.character("X"))) == [.command(.decline(job: 3)), .command(.decline(job: 4))])
        #expect(finish(&stopped, 2, .succeeded).isEmpty)
        #expect(stopped.state.rollout?.isOver == true)
    }

    @Test("a host reconnecting while its plan waits: its held job comes back in the rollout (no question of its own) and starts in its turn")
    func heldJobAcrossReconnect() {
        var scenario = board(parallel: 1)
        plan(&scenario, ["web1", "web2"])
        #expect(Scenario.commands(scenario.press(.character("y"))) == [.command(.confirm(job: 1))])
        _ = scenario.state.handle(.host(.unreachable("web2", reason: "ssh: Connection refused", retryAt: scenario.now.addingTimeInterval(1))))
        scenario.advance(1)
        _ = scenario.state.handle(.host(.connecting("web2")))
        _ = scenario.state.handle(.host(.queueReplaced("web2")))
        #expect(Scenario.commands(held(&scenario, "web2", board: 2)).isEmpty)
        _ = scenario.state.handle(.host(.queueShown("web2")))
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.rollout?.hosts[1].phase == .waiting(job: 2))
        #expect(finish(&scenario, 1, .succeeded) == [.command(.confirm(job: 2))])
    }

    @Test("quitting with hosts left asks, says the running ones go on, and declines those not started")
    func quitWithHostsLeft() {
        var scenario = board()
        plan(&scenario, ["web1", "web2", "web3"])
        scenario.press(.character("y"))
        scenario.startJob(1)
        #expect(Scenario.commands(scenario.press(.character("q"))).isEmpty)
        let screen = scenario.screen()
        #expect(scenario.state.overlay == .confirm(.quitRollout(left: 1, running: 2)))
        #expect(screen.contains("Leave the board with 1 host of the"), "\(screen)")
        #expect(screen.contains("running go on in their engines"), "\(screen)")
        #expect(Scenario.commands(scenario.press(.character("y"))) == [.command(.decline(job: 3)), .quit(abortRunning: false)])

        var done = board()
        plan(&done, ["web1"])
        done.press(.character("y"))
        #expect(Scenario.commands(done.press(.character("q"))) == [.quit(abortRunning: false)])
    }
}
