import EngineWire
import Foundation
import InstallEngine
import TerminalUI
import Testing

@testable import Monitor

/// Commit-confirmed runs on the board and the monitor (`W`, `L`, `K`, the row's countdown and
/// word, keeping by a fresh login), on values with a manual clock.
@Suite("Monitor armed runs")
struct MonitorArmedRunsTests {
    private static let hosts = ["web1", "web2"]

    private func board() -> Scenario {
        var scenario = Scenario(width: 120, height: 30)
        scenario.state.isAttached = true
        _ = scenario.state.handle(.host(.hosts(Self.hosts)))
        for host in Self.hosts {
            _ = scenario.state.handle(.host(.connecting(host)))
            _ = scenario.state.handle(.host(.queueReplaced(host)))
            _ = scenario.state.handle(.host(.queueShown(host)))
        }
        return scenario
    }

    /// `host`'s row on the screen.
    private func row(_ host: String, _ scenario: Scenario) -> String {
        scenario.screen().split(separator: "\n").first { $0.contains("▸ \(host) ") }.map(String.init) ?? ""
    }

    /// A window of `host`'s engine, as its `armed` event says it.
    private func armed(_ run: Int, _ state: ArmedRun.State, name: String, armedAt: Date, deadline: Date, decidedAt: Date? = nil,
                       regressions: [String] = []) -> ArmedRuns {
        ArmedRuns(runs: [ArmedRun(run: run, state: state, armedAt: armedAt, deadline: deadline, decidedAt: decidedAt,
                                  regressions: regressions, name: name)])
    }

    /// `host`'s rollout upgrade, held as board job `board`, taken with y and run to success.
    private func upgraded(_ scenario: inout Scenario, _ host: String, board job: Int, name: String) {
        _ = scenario.state.handle(.host(.jobOrigin(board: job, origin: JobOrigin(host: host, job: 1))))
        let change = PackageChange(package: "jq", action: .upgrade, oldVersion: "1.6", newVersion: "1.7")
        _ = scenario.send(.jobQueued(JobDescriptor(id: job, name: name, operation: .install,
                                                   updates: [Update(id: "\(host)-jq", title: "jq", package: change)],
                                                   stopOnFailure: false, awaitsConfirmation: true, runByDriver: true)))
        scenario.press(.character("y"))
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.completeUpdate(job, 0, .succeeded)
        let result = InstallationResult.combining([scenario.state.queue.job(job)!.updates[0].result], abortRequested: false)
        _ = scenario.send(.jobCompleted(job: job, result: result))
    }

    @Test("W cycles the window U arms with (off, 5m, 15m, 1h, off), said in the header; U sends it; the dialog says what it means")
    func windowCycles() {
        var scenario = board()
        #expect(scenario.state.confirmWindowSeconds == nil)
        scenario.press(.character("W"))
        #expect(scenario.state.confirmWindowSeconds == 300)
        #expect(scenario.screen().split(separator: "\n").first?.contains("confirm 5m") == true)
        scenario.press(.character("W"))
        scenario.press(.character("W"))
        #expect(scenario.state.confirmWindowSeconds == 3600)
        scenario.press(.character("W"))
        #expect(scenario.state.confirmWindowSeconds == nil)
        #expect(scenario.screen().split(separator: "\n").first?.contains("confirm") == false)
        scenario.press(.character("W"))
        scenario.press(.character("L"))
        #expect(scenario.screen().split(separator: "\n").first?.contains("confirm 5m by login") == true)
        #expect(Scenario.commands(scenario.press(.character("U"))) == [.upgradeOnHost(host: "web1", full: false, confirmSeconds: 300)])
        #expect(scenario.screen().contains("unless kept within 5m"), "\(scenario.screen())")
    }

    @Test("Armed, the dialog names a package that takes effect only after a reboot (a kernel); unarmed, it does not")
    func dialogNamesRebootOnlyPackages() {
        for armed in [true, false] {
            var scenario = board()
            scenario.state.confirmWindowSeconds = armed ? 300 : nil
            _ = scenario.press(.character("U"))
            _ = scenario.state.handle(.host(.jobOrigin(board: 1, origin: JobOrigin(host: "web1", job: 1))))
            let kernel = PackageChange(package: "linux-image-6.1.0-28-amd64", action: .upgrade, oldVersion: "6.1.119-1", newVersion: "6.1.123-1")
            _ = scenario.send(.jobQueued(JobDescriptor(id: 1, name: "apt upgrade · 1 to upgrade", operation: .install,
                                                       updates: [Update(id: "web1-kernel", title: kernel.package, package: kernel)],
                                                       stopOnFailure: false, awaitsConfirmation: true, runByDriver: true)))
            let said = scenario.screen().contains("linux-image-6.1.0-28-amd64 takes effect only after a reboot")
            #expect(said == armed, "\(scenario.screen())")
        }
    }

    @Test("An armed host's row counts down, then says how its window ended for an hour; K keeps the selected host's run")
    func rowCountsDownAndKKeeps() {
        var scenario = board()
        let name = "apt upgrade · 1 to upgrade · confirm within 5m"
        scenario.press(.character("W"))
        _ = scenario.press(.character("U"))
        upgraded(&scenario, "web1", board: 1, name: name)
        #expect(row("web1", scenario).contains("succeeded"))
        _ = scenario.state.handle(.host(.armed("web1", armed(12, .armed, name: name, armedAt: scenario.now,
                                                              deadline: scenario.now.addingTimeInterval(300)))))
        #expect(row("web1", scenario).contains("armed 5m"), "\(row("web1", scenario))")
        #expect(scenario.state.nextTickTime != nil, "the countdown ticks")
        scenario.advance(28)
        #expect(row("web1", scenario).contains("armed 4m32s"), "\(row("web1", scenario))")
        #expect(Scenario.commands(scenario.press(.character("K"))) == [.keepRun(host: "web1", run: 12)])
        _ = scenario.state.handle(.host(.armed("web1", armed(12, .confirmed, name: name, armedAt: scenario.now,
                                                              deadline: scenario.now.addingTimeInterval(272), decidedAt: scenario.now))))
        #expect(row("web1", scenario).contains("confirmed"))
        scenario.advance(3601)
        #expect(row("web1", scenario).contains("succeeded"), "an hour on, the job's own word again")
        // Nothing armed on web2: K says so and sends nothing.
        scenario.press(.down)
        #expect(Scenario.commands(scenario.press(.character("K"))).isEmpty)
    }

    @Test("With L, the rollout's run armed without a regression is logged into afresh once, then kept; a failed login is said with the deadline and keeps nothing; a regressed run is never kept by login")
    func keptByLogin() {
        var scenario = board()
        let name = "apt upgrade · 1 to upgrade · confirm within 5m"
        scenario.press(.character("W"))
        scenario.press(.character("L"))
        _ = scenario.press(.character("U"))
        upgraded(&scenario, "web1", board: 1, name: name)
        let window = armed(12, .armed, name: name, armedAt: scenario.now, deadline: scenario.now.addingTimeInterval(300))
        #expect(Scenario.commands(scenario.state.handle(.host(.armed("web1", window)))) == [.keepRunAfterFreshLogin(host: "web1", run: 12)])
        // Told again (another window changed): tried once only.
        #expect(Scenario.commands(scenario.state.handle(.host(.armed("web1", window)))).isEmpty)
        #expect(Scenario.commands(scenario.state.handle(.host(.freshLogin("web1", run: 12, failure: nil)))) == [.keepRun(host: "web1", run: 12)])
        #expect(Scenario.commands(scenario.state.handle(.host(.freshLogin("web1", run: 12, failure: "Connection refused")))).isEmpty)
        #expect(scenario.screen().contains("a fresh ssh login failed (Connection refused): run 12 is not kept"), "\(scenario.screen())")

        // A window of another name (not this rollout's job) is never kept by login.
        let other = armed(13, .armed, name: "apt install jq · confirm within 5m", armedAt: scenario.now,
                          deadline: scenario.now.addingTimeInterval(300))
        #expect(Scenario.commands(scenario.state.handle(.host(.armed("web1", other)))).isEmpty)
        // A regressed one neither: said.
        let regressed = armed(14, .armed, name: name, armedAt: scenario.now, deadline: scenario.now.addingTimeInterval(300),
                              regressions: ["sshd -t: passed → failed"])
        #expect(Scenario.commands(scenario.state.handle(.host(.armed("web1", regressed)))).isEmpty)
        #expect(scenario.screen().contains("is not kept by login"), "\(scenario.screen())")
    }

    @Test("Off the board: the engine's open run in the header; K keeps the newest armed run, or says none waits")
    func singleEngine() {
        var scenario = Scenario(width: 120, height: 30)
        scenario.state.isAttached = true
        #expect(Scenario.commands(scenario.press(.character("K"))).isEmpty)
        #expect(scenario.screen().contains("No run waits for a confirmation"))
        _ = scenario.state.handle(.armed(armed(7, .armed, name: "apt upgrade", armedAt: scenario.now,
                                               deadline: scenario.now.addingTimeInterval(90))))
        #expect(scenario.screen().split(separator: "\n").first?.contains("run 7 armed 1m30s · K keeps it") == true, "\(scenario.screen())")
        #expect(Scenario.commands(scenario.press(.character("K"))) == [.keepRun(host: nil, run: 7)])
    }
}
