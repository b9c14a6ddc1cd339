import InstallEngine
import Monitor
import RestartScan
import Testing

/// Rule 32 in the monitor's header: "N services to restart" beside "reboot required", from the
/// advice of the job that completed last.
@Suite("monitor: restart advice in the header")
struct MonitorRestartHeaderTests {
    private func process(_ pid: Int32, _ unit: String) -> StaleProcess {
        StaleProcess(pid: pid, command: "p\(pid)", uid: 0, user: "root", owner: .service(unit: unit),
                     files: [StaleFile(path: "/usr/lib/libssl.so.3", change: .deleted)])
    }

    @Test("two services (three processes) and a kernel: both in the header")
    func servicesAndReboot() {
        var scenario = Scenario(width: 100, height: 24)
        scenario.complete(advice: RestartAdvice(
            processes: [process(1, "nginx.service"), process(2, "nginx.service"), process(3, "cron.service")],
            rebootReasons: [.newerKernel(running: "6.1.0-9", installed: "6.1.0-18")]))

        let header = scenario.screen().split(separator: "\n")[0]

        #expect(header.contains("2 services to restart · ⟳ reboot required"), "\(header)")
    }

    @Test("a bare process alone needs no service restart; nothing shows")
    func bareOnly() {
        var scenario = Scenario(width: 100, height: 24)
        scenario.complete(advice: RestartAdvice(processes: [
            StaleProcess(pid: 9, command: "loose", uid: 0, user: "root", owner: .bare, files: [StaleFile(path: "/x", change: .deleted)]),
        ]))

        let header = scenario.screen().split(separator: "\n")[0]

        #expect(!header.contains("restart") && !header.contains("reboot"), "\(header)")
    }

    @Test("the newest job's advice counts: a later scan with nothing stale clears the header")
    func newestWins() {
        var scenario = Scenario(width: 100, height: 24)
        scenario.complete(advice: RestartAdvice(processes: [process(1, "nginx.service")]))
        #expect(scenario.screen().split(separator: "\n")[0].contains("1 service to restart"))
        scenario.advance(1)
        scenario.complete(advice: RestartAdvice())

        #expect(!scenario.screen().split(separator: "\n")[0].contains("to restart"))
    }

    @Test("a restart job that left a service not running: its scan lists no process of it, the header still counts it, R asks again")
    func failedRestartStaysCounted() {
        var scenario = Scenario(width: 100, height: 24)
        scenario.complete(advice: RestartAdvice(processes: [process(1, "nginx.service")]))
        scenario.advance(1)
        scenario.complete(RestartJobPlan.jobName, advice: RestartAdvice(failedRestarts: [
            FailedRestart(service: "nginx.service", reason: "restart exited 0, but `systemctl is-active nginx.service` says failed"),
        ]))

        let header = scenario.screen().split(separator: "\n")[0]
        scenario.press(.character("R"))

        #expect(header.contains("1 service to restart"), "\(header)")
        #expect(scenario.screen().contains("Restart 1 service (systemctl restart)?"), "\(scenario.screen())")
    }

    /// The advice stays on screen for as long as the monitor runs: while later jobs run, the
    /// queue's bar and percent still show (the job count gives way first), or the header would
    /// stand still through a long update (seen in the demo's tmux test).
    @Test("with restart advice and a reboot in the header, a running queue still shows its percent at 100 columns")
    func percentBesideTheAdvice() {
        var scenario = Scenario(width: 100, height: 24)
        scenario.complete(advice: RestartAdvice(
            processes: [process(1, "nginx.service")], rebootReasons: [.newerKernel(running: "6.1.0-9", installed: "6.1.0-18")]))
        let running = scenario.queue("Database migration", ["Migrate the inventory database", "Vacuum"])
        for name in ["Tools", "Drivers", "Remove old kernels", "Demo packages", "Security"] {
            scenario.queue(name, ["first update of \(name)", "second update of \(name)"])
        }
        scenario.startJob(running)
        scenario.startUpdate(running, 0)
        scenario.progress(running, 0, 40)

        let header = String(scenario.screen().split(separator: "\n")[0])

        #expect(header.contains("1 service to restart · ⟳ reboot required"), "\(header)")
        #expect(header.contains("%") && header.contains("1 running"), "the queue's percent gives way to nothing: \(header)")
    }
}
