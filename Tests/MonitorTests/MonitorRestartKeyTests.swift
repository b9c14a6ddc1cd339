import InstallEngine
import RestartScan
import TerminalUI
import Testing

@testable import Monitor

/// Rule 32's `R` in the monitor: the question lists what the newest restart scan says, `y`
/// submits the restart job `installtop restart-services` would, `n` and Esc submit nothing.
@Suite("monitor: R restarts the services")
struct MonitorRestartKeyTests {
    private func process(_ pid: Int32, _ command: String, _ owner: ProcessOwner) -> StaleProcess {
        StaleProcess(pid: pid, command: command, uid: 33, user: "www-data", owner: owner,
                     files: [StaleFile(path: "/usr/lib/x86_64-linux-gnu/libssl.so.3", change: .deleted)])
    }

    /// nginx twice, cron, sshd (left out), a session and a bare process.
    private var advice: RestartAdvice {
        RestartAdvice(processes: [
            process(10, "nginx", .service(unit: "nginx.service")), process(11, "nginx", .service(unit: "nginx.service")),
            process(12, "cron", .service(unit: "cron.service")), process(13, "sshd", .service(unit: "sshd.service")),
            process(14, "bash", .session(name: "session-3.scope")), process(15, "loose", .bare),
        ])
    }

    @Test("R asks, listing the services to restart, the one left out and the process of no service")
    func asks() throws {
        var scenario = Scenario(width: 100, height: 30)
        scenario.complete(advice: advice)

        let effects = Scenario.commands(scenario.press(.character("R")))

        #expect(effects.isEmpty, "nothing is submitted before the answer")
        guard case .confirm(.restartServices(let plan, _))? = scenario.state.overlay else {
            Issue.record("no question: \(String(describing: scenario.state.overlay))")
            return
        }
        #expect(plan.restart == ["cron.service", "nginx.service"])
        #expect(plan.leftOut == ["sshd.service"])
        #expect(plan.bare.map(\.pid) == [15])
        let screen = scenario.screen()
        #expect(screen.contains("Restart 2 services (systemctl restart)?"), "\(screen)")
        for row in ["restart    cron.service", "restart    nginx.service", "left out   sshd.service", "no service 15 loose (www-data)"] {
            #expect(screen.contains(row), "\(row) in:\n\(screen)")
        }
        #expect(screen.contains("y restarts the 2 services; n restarts nothing."), "\(screen)")
    }

    @Test("y submits one systemctl restart update per unit, as restart-services does")
    func yesSubmits() throws {
        var scenario = Scenario(width: 100, height: 30)
        scenario.complete(advice: advice)
        scenario.press(.character("R"))

        let effects = Scenario.commands(scenario.press(.character("y")))

        let expected = RestartJobPlan.updates(restarting: ["cron.service", "nginx.service"])
        #expect(effects == [.submit(name: "Restart services", updates: expected)])
        #expect(expected.map(\.installCommand) == [.argv(RestartJobPlan.command(restarting: "cron.service", asInitScript: false)),
                                                    .argv(RestartJobPlan.command(restarting: "nginx.service", asInitScript: false))])
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.status?.text == "Restarting 2 services")
    }

    @Test("a service an init script started is restarted by its script; an ssh script is left out unless named")
    func initScripts() throws {
        var scenario = Scenario(width: 100, height: 30)
        scenario.complete(advice: RestartAdvice(processes: [
            process(20, "nginx", .initScript(name: "nginx")), process(21, "nginx", .initScript(name: "nginx")),
            process(22, "sshd", .initScript(name: "ssh")), process(23, "cron", .service(unit: "cron.service")),
        ]))
        scenario.press(.character("R"))
        let screen = scenario.screen()

        let effects = Scenario.commands(scenario.press(.character("y")))

        #expect(screen.contains("Restart 2 services (systemctl restart, or its init script)?"), "\(screen)")
        #expect(screen.contains("left out   /etc/init.d/ssh"), "\(screen)")
        let expected = RestartJobPlan.updates(restarting: ["/etc/init.d/nginx", "cron.service"])
        #expect(effects == [.submit(name: "Restart services", updates: expected)])
        #expect(expected.map(\.installCommand) == [
            .argv(RestartJobPlan.command(restarting: "/etc/init.d/nginx", asInitScript: true)),
            .argv(RestartJobPlan.command(restarting: "cron.service", asInitScript: false)),
        ])
        #expect(RestartJobPlan.isLeftOutUnlessNamed("/etc/init.d/dbus"))
        #expect(!RestartJobPlan.isLeftOutUnlessNamed("/etc/init.d/nginx"))
    }

    @Test("n and Esc submit nothing")
    func noCancels() {
        for key in [Key.character("n"), .escape] {
            var scenario = Scenario(width: 100, height: 30)
            scenario.complete(advice: advice)
            scenario.press(.character("R"))

            #expect(Scenario.commands(scenario.press(key)).isEmpty)
            #expect(scenario.state.overlay == nil)
        }
    }

    @Test("the newest scan counts: R restarts what the job that completed last found")
    func newestScan() {
        var scenario = Scenario(width: 100, height: 30)
        scenario.complete(advice: advice)
        scenario.advance(1)
        scenario.complete(advice: RestartAdvice(processes: [process(20, "php-fpm", .service(unit: "php8.2-fpm.service"))]))
        scenario.press(.character("R"))

        #expect(Scenario.commands(scenario.press(.character("y")))
            == [.submit(name: "Restart services", updates: RestartJobPlan.updates(restarting: ["php8.2-fpm.service"]))])
    }

    @Test("with nothing to restart, R says so in the status line and asks nothing")
    func nothingToRestart() {
        var scenario = Scenario(width: 100, height: 30)
        scenario.press(.character("R"))
        #expect(scenario.state.overlay == nil)
        #expect(scenario.state.status?.text.hasPrefix("No restart scan yet") == true)

        scenario.complete(advice: RestartAdvice(processes: [process(13, "sshd", .service(unit: "sshd.service")), process(15, "loose", .bare)]))
        scenario.press(.character("R"))

        #expect(scenario.state.overlay == nil)
        let status = scenario.state.status?.text ?? ""
        #expect(status.hasPrefix("No service to restart; left out: sshd.service"), "\(status)")
        #expect(status.contains("1 process of no service"), "\(status)")
    }

    @Test("a long list scrolls in the question and fits 80×24; the keys' line shows where it is")
    func scrolls() throws {
        var scenario = Scenario(width: 80, height: 24)
        let many = (0..<40).map { process(Int32(100 + $0), "worker", .service(unit: "worker\($0).service")) }
        scenario.complete(advice: RestartAdvice(processes: many))
        scenario.press(.character("R"))
        let lines = scenario.render().lines
        #expect(lines.count == 24 && lines.allSatisfy { DisplayWidth.of($0) <= 80 })
        #expect(lines.contains { $0.contains("of 40") }, "\(lines.joined(separator: "\n"))")

        scenario.press(.end)

        guard case .confirm(.restartServices(_, let scroll))? = scenario.state.overlay else {
            Issue.record("the question closed")
            return
        }
        #expect(scroll > 0)
        #expect(scenario.screen().contains("worker9.service"), "the last unit (sorted) shows at the end")
        #expect(Scenario.commands(scenario.press(.character("y"))).count == 1)
    }

    @Test("at 40×12 the question still fits, with its keys' line")
    func smallTerminal() {
        var scenario = Scenario(width: 40, height: 12)
        scenario.complete(advice: advice)
        scenario.press(.character("R"))

        let lines = scenario.render().lines
        #expect(lines.count == 12 && lines.allSatisfy { DisplayWidth.of($0) <= 40 })
        #expect(lines.contains { $0.contains("y yes") && $0.contains("n no") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("restart    cron.service") }, "\(lines.joined(separator: "\n"))")
    }

    @Test("R is in the help and the key map, attached too")
    func inKeyMap() {
        #expect(MonitorKeyMap.binding(for: .character("R"), attached: false)?.action == .restartServices)
        #expect(MonitorKeyMap.binding(for: .character("R"), attached: true)?.action == .restartServices)
        #expect(MonitorState.keyHelp.contains { $0.keys == "R" })
    }
}
