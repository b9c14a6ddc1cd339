import InstallEngine
import RestartScan
import TerminalUI
import Testing

@testable import Monitor

/// Enter in the jobs pane: the job's detail lists its restart advice (rule 32) by service,
/// session, container and bare process, each process with pid, command, user and files, the
/// reboot reasons, and scrolls; it fits small terminals.
@Suite("monitor: the job's detail")
struct MonitorJobDetailTests {
    private static let ssl = "/usr/lib/x86_64-linux-gnu/libssl.so.3"
    private static let crypto = "/usr/lib/x86_64-linux-gnu/libcrypto.so.3"

    private func process(_ pid: Int32, _ command: String, _ user: String, _ owner: ProcessOwner, _ paths: [String]) -> StaleProcess {
        StaleProcess(pid: pid, command: command, uid: 0, user: user, owner: owner,
                     files: paths.map { StaleFile(path: $0, change: .deleted) })
    }

    private var advice: RestartAdvice {
        RestartAdvice(
            processes: [
                process(1234, "nginx", "www-data", .service(unit: "nginx.service"), [Self.ssl, Self.crypto]),
                process(812, "sshd", "root", .service(unit: "sshd.service"), [Self.crypto]),
                process(4711, "bash", "alice", .session(name: "session-3.scope"), ["/usr/bin/bash"]),
                process(99, "loose", "bob", .bare, [Self.ssl]),
            ],
            unreadable: [UnreadableProcess(pid: 555, command: "secret", reason: "Permission denied")],
            rebootReasons: [.newerKernel(running: "6.1.0-9-amd64", installed: "6.1.0-18-amd64"),
                            .rebootRequiredFile(packages: ["libc6", "linux-image-6.1.0-18-amd64"])])
    }

    @Test("Enter in the jobs pane lists every group with its processes, the reboot reasons and the unreadable ones")
    func lists() throws {
        var scenario = Scenario(width: 120, height: 40)
        let job = scenario.complete(advice: advice)

        scenario.press(.enter)

        #expect(scenario.state.overlay == .jobDetail(job: job, scroll: 0))
        let screen = scenario.screen()
        for text in [
            "succeeded · 1/1 updates done",
            "Restarts: 2 services to restart (4 processes run deleted or replaced code) · reboot required",
            "reboot required: kernel 6.1.0-18-amd64 is installed, 6.1.0-9-amd64 runs",
            "reboot required: /run/reboot-required (libc6, linux-image-6.1.0-18-amd64)",
            "nginx.service", "1234  nginx  www-data  \(Self.ssl), \(Self.crypto)",
            "sshd.service (left out unless named)", " 812  sshd   root      \(Self.crypto)",
            "session-3.scope (its user)", "4711  bash   alice     /usr/bin/bash",
            "nothing (never killed)", "  99  loose  bob       \(Self.ssl)",
            "Could not read 1 process", "555 secret (Permission denied)",
        ] {
            #expect(screen.contains(text), "\(text) in:\n\(screen)")
        }
        #expect(try #require(scenario.render().lines.last).contains("Esc close"))
        scenario.press(.escape)
        #expect(scenario.state.overlay == nil)
    }

    @Test("at 80×24 the paths shorten to file names; every line fits")
    func fits80x24() {
        var scenario = Scenario(width: 80, height: 24)
        scenario.complete(advice: RestartAdvice(processes: [
            process(1234, "php-fpm8.2", "www-data", .service(unit: "php8.2-fpm.service"),
                    [Self.ssl, Self.crypto, "/usr/lib/x86_64-linux-gnu/libxml2.so.2.9.14"]),
        ]))
        scenario.press(.enter)

        let lines = scenario.render().lines
        #expect(lines.count == 24 && lines.allSatisfy { DisplayWidth.of($0) <= 80 })
        #expect(lines.contains { $0.contains("1234  php-fpm8.2  www-data  libssl.so.3, libcrypto.so.3, libxml2.so.2.9.14") },
                "\(lines.joined(separator: "\n"))")
    }

    @Test("at 40×12 the files go on a line of their own and the names that do not fit become +N")
    func fitsSmall() {
        var scenario = Scenario(width: 40, height: 12)
        scenario.complete(advice: RestartAdvice(processes: [
            process(1234, "php-fpm8.2", "www-data", .service(unit: "php8.2-fpm.service"),
                    [Self.ssl, Self.crypto, "/usr/lib/x86_64-linux-gnu/libxml2.so.2.9.14"]),
        ]))
        scenario.press(.enter)

        let lines = scenario.render().lines
        #expect(lines.count == 12 && lines.allSatisfy { DisplayWidth.of($0) <= 40 })
        #expect(lines.contains { $0.contains("1234  php-fpm8.2  www-data") })
        #expect(lines.contains { $0.contains("    libssl.so.3, libcrypto.so.3 +1") }, "\(lines.joined(separator: "\n"))")
    }

    @Test("the file list shortens: whole, names, names with +N, a cut name")
    func filesShorten() {
        let paths = [Self.ssl, Self.crypto]
        #expect(JobDetail.files(paths, width: 80, ellipsis: "…") == "\(Self.ssl), \(Self.crypto)")
        #expect(JobDetail.files(paths, width: 30, ellipsis: "…") == "libssl.so.3, libcrypto.so.3")
        #expect(JobDetail.files(paths, width: 20, ellipsis: "…") == "libssl.so.3 +1")
        #expect(JobDetail.files(paths, width: 10, ellipsis: "…") == "libssl… +1")
        #expect(JobDetail.files([Self.ssl], width: 8, ellipsis: "…") == "libssl.…")
    }

    @Test("a long list scrolls: End shows the last process, Home the headline again; the title says which lines")
    func scrolls() throws {
        var scenario = Scenario(width: 80, height: 24)
        let many = (0..<60).map { process(Int32(1000 + $0), "worker", "root", .service(unit: "worker.service"), [Self.ssl]) }
        scenario.complete(advice: RestartAdvice(processes: many))
        scenario.press(.enter)
        #expect(!scenario.screen().contains("1059  worker"))

        scenario.press(.end)

        let screen = scenario.screen()
        #expect(screen.contains("1059  worker"), "\(screen)")
        #expect(!screen.contains("Restarts: 1 service"))
        #expect(screen.contains("of 65"), "5 lines above the processes: \(screen)")
        scenario.press(.home)
        #expect(scenario.screen().contains("Restarts: 1 service to restart"))
        #expect(scenario.state.overlay == .jobDetail(job: 1, scroll: 0))
    }

    @Test("a running job's detail says the scan comes when it completes; Enter in the updates pane still opens the output")
    func runningJob() {
        var scenario = Scenario(width: 100, height: 30)
        let job = scenario.queue("Upgrade", ["openssl", "curl"])
        scenario.startJob(job)
        scenario.startUpdate(job, 0)
        scenario.press(.enter)
        #expect(scenario.screen().contains("Restarts: scanned when the job completes"))
        scenario.press(.escape, .tab, .enter)
        #expect(scenario.state.overlay == .fullOutput(job: job, index: 0, scroll: 0))
    }

    @Test("the detail closes when its job is cleaned up")
    func closesOnCleanUp() {
        var scenario = Scenario(width: 100, height: 30)
        let job = scenario.complete(advice: advice)
        scenario.press(.enter)
        scenario.send(.jobCleanedUp(job: job))
        #expect(scenario.state.overlay == nil)
    }

    @Test("an init script's service is a group of its own; processes of other roots are listed apart, left out of the headline")
    func initScriptsAndOtherRoots() {
        var scenario = Scenario(width: 100, height: 40)
        var other = process(4242, "redis-server", "redis", .bare, ["/usr/bin/redis-server"])
        other.root = "/srv/jail"
        let job = scenario.complete(advice: RestartAdvice(
            processes: [process(700, "nginx", "root", .initScript(name: "nginx"), [Self.ssl])], otherRoots: [other]))

        scenario.press(.enter)

        #expect(scenario.state.overlay == .jobDetail(job: job, scroll: 0))
        let screen = scenario.screen()
        for text in [
            "Restarts: 1 service to restart (1 process runs deleted or replaced code)",
            "/etc/init.d/nginx", "700  nginx  root  \(Self.ssl)",
            "In another root, left out (restart it there): 1 process runs code its root deleted or replaced",
            "4242 redis-server in /srv/jail  /usr/bin/redis-server",
        ] {
            #expect(screen.contains(text), "\(text) in:\n\(screen)")
        }
    }

    @Test("a restart job's service that did not run afterwards: counted in the headline, its reason on a line of its own")
    func failedRestart() {
        var scenario = Scenario(width: 120, height: 40)
        scenario.complete(RestartJobPlan.jobName, advice: RestartAdvice(failedRestarts: [
            FailedRestart(service: "/etc/init.d/redis-server", reason: "restart exited 0, but the pid file /run/redis/redis-server.pid names 1234, which is not running"),
        ]))

        scenario.press(.enter)

        let screen = scenario.screen()
        for text in [
            "Restarts: 1 service to restart (1 restart failed)",
            "restart failed: /etc/init.d/redis-server (restart exited 0, but the pid file /run/redis/redis-server.pid names 1234",
        ] {
            #expect(screen.contains(text), "\(text) in:\n\(screen)")
        }
    }
}
