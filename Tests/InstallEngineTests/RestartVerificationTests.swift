import Foundation
import InstallEngine
import RestartScan
import Testing

/// Rule 32, issue 43: a restart job's update is checked against the system after its restart
/// exits 0. These run the real `ProcessBackend` on the plan's own commands, with a fake
/// `systemctl` on the update's PATH and a fake init script in a temporary root, so nothing of
/// this machine is restarted; the scan's answer is fixed (empty), so what the advice lists of a
/// service comes from its failed restart alone.
@Suite("Restart job: each service is checked to run")
struct RestartVerificationTests {
    let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-test-marker")

    /// A `systemctl` in `folder/bin` whose `restart` exits 0 and whose `is-active` answers with
    /// the lines of `folder/states` in turn (the last one from then on): exit 0 for `active`,
    /// 3 for anything else, as systemctl does; returns the PATH to give the update.
    private func fakeSystemctl(in folder: ProcessTestDirectory, states: [String]) throws -> String {
        try FileManager.default.createDirectory(atPath: folder.file("bin"), withIntermediateDirectories: true)
        try states.joined(separator: "\n").appending("\n").write(toFile: folder.file("states"), atomically: true, encoding: .utf8)
        try folder.script("bin/systemctl", """
            echo "$*" >> '\(folder.file("calls"))'
            case $1 in
            restart) exit 0 ;;
            is-active)
                state=$(head -n 1 '\(folder.file("states"))')
                if [ "$(wc -l < '\(folder.file("states"))')" -gt 1 ]; then sed -i 1d '\(folder.file("states"))'; fi
                echo "$state"
                [ "$state" = active ] ;;
            esac
            """)
        return folder.file("bin") + ":/usr/bin:/bin"
    }

    /// Runs `updates` as one job on a queue whose scan finds nothing; returns its result.
    private func run(_ updates: [Update]) async throws -> InstallationResult {
        let queue = JobQueue(backend: ProcessBackend(), configuration: configuration,
                             restartAdvisor: JobQueueRestartAdviceTests.FixedAdvisor(RestartAdvice()))
        let job = try queue.submit(name: RestartJobPlan.jobName, updates: updates)
        await queue.waitUntilIdle()
        return try #require(queue.snapshot().job(job.id)?.result)
    }

    @Test("systemctl restart exits 0 but the unit is not active: the update fails saying so, and the unit stays in the advice")
    func unitNotActive() async throws {
        let folder = try ProcessTestDirectory()
        defer { folder.remove() }
        let path = try fakeSystemctl(in: folder, states: ["failed"])
        let updates = RestartJobPlan.updates(restarting: ["nginx.service"], grace: 1).map { update in
            var update = update
            update.environment["PATH"] = path
            return update
        }

        let result = try await run(updates)

        let nginx = try #require(result.updateResults.first)
        #expect(nginx.resultCode == .failed)
        #expect(nginx.reason?.hasSuffix("restart exited 0, but `systemctl is-active nginx.service` says failed") == true,
                "\(nginx.reason ?? "no reason")")
        let advice = try #require(result.restartAdvice)
        #expect(advice.failedRestarts.map(\.service) == ["nginx.service"])
        #expect(advice.failedRestarts.first?.reason == nginx.reason)
        #expect(advice.services == ["nginx.service"], "the scan found nothing, the failed restart still counts")
        #expect(advice.needsAction)
        #expect(advice.headline == "1 service to restart (1 restart failed)")
        // Polled, not asked once: more than one is-active within the grace.
        let calls = (try? String(contentsOfFile: folder.file("calls"), encoding: .utf8)) ?? ""
        #expect(calls.components(separatedBy: "is-active nginx.service").count - 1 > 1, "\(calls)")
    }

    @Test("a unit still activating when the restart returns is polled until it is active: the update succeeds, nothing stays")
    func unitActiveAfterActivating() async throws {
        let folder = try ProcessTestDirectory()
        defer { folder.remove() }
        let path = try fakeSystemctl(in: folder, states: ["activating", "activating", "active"])
        var update = try #require(RestartJobPlan.updates(restarting: ["redis-server.service"]).first)
        update.environment["PATH"] = path

        let result = try await run([update])

        #expect(result.updateResults.first?.resultCode == .succeeded, "\(result.updateResults.first?.reason ?? "")")
        #expect(result.restartAdvice?.failedRestarts == [])
        #expect(result.restartAdvice?.services == [])
    }

    @Test("an init script whose restart exits 0 and leaves a stale pid file: the update fails naming the file and the pid, and stays in the advice")
    func initScriptStalePidFile() async throws {
        let folder = try ProcessTestDirectory()
        defer { folder.remove() }
        for path in ["etc/init.d", "run"] {
            try FileManager.default.createDirectory(atPath: folder.file(path), withIntermediateDirectories: true)
        }
        // No process has the pid `pid_max`: pids are below it.
        let stale = try String(contentsOfFile: "/proc/sys/kernel/pid_max", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        // Its status would say it runs: the pid file, which the scan goes by, decides.
        let script = try folder.script("etc/init.d/redis", """
            case $1 in
            restart) echo \(stale) > '\(folder.file("run/redis.pid"))' ;;
            status) exit 0 ;;
            esac
            """)
        let update = Update(id: script, title: "Restart \(script)",
                            installCommand: .argv(RestartJobPlan.command(restarting: script, asInitScript: true, grace: 1)))

        let result = try await run([update])

        let redis = try #require(result.updateResults.first)
        #expect(redis.resultCode == .failed)
        #expect(redis.reason?.hasSuffix("restart exited 0, but the pid file \(folder.file("run/redis.pid")) names \(stale), which is not running") == true,
                "\(redis.reason ?? "no reason")")
        #expect(result.restartAdvice?.failedRestarts.map(\.service) == [script])
        #expect(result.restartAdvice?.services == [script])
    }

    @Test("an init script whose pid file names a live process: the update succeeds")
    func initScriptRunning() async throws {
        let folder = try ProcessTestDirectory()
        defer { folder.remove() }
        for path in ["etc/init.d", "run/redis"] {
            try FileManager.default.createDirectory(atPath: folder.file(path), withIntermediateDirectories: true)
        }
        // This test's own process is alive for as long as the check runs.
        let script = try folder.script("etc/init.d/redis", """
            case $1 in
            restart) echo \(getpid()) > '\(folder.file("run/redis/redis-server.pid"))' ;;
            status) exit 3 ;;
            esac
            """)
        let update = Update(id: script, installCommand: .argv(RestartJobPlan.command(restarting: script, asInitScript: true, grace: 1)))

        let result = try await run([update])

        #expect(result.updateResults.first?.resultCode == .succeeded, "\(result.updateResults.first?.reason ?? "")")
        #expect(result.restartAdvice?.services == [])
    }

    @Test("a job's updates that are no restarts give no failed restarts, whatever their result")
    func otherUpdates() {
        let updates = [Update(id: "nginx.service", installCommand: .argv(["systemctl", "restart", "nginx.service"]))]
        let failed = UpdateInstallationResult(resultCode: .failed, reason: "exited with status 1", startedAt: Date(), endedAt: Date())
        #expect(RestartJobPlan.failedRestarts(of: updates, results: [failed]) == [])
        let restart = RestartJobPlan.updates(restarting: ["nginx.service"])
        #expect(RestartJobPlan.failedRestarts(of: restart, results: [failed]) == [FailedRestart(service: "nginx.service", reason: "exited with status 1")])
        #expect(RestartJobPlan.failedRestarts(of: restart, results: [.notStarted]) == [])
    }
}
