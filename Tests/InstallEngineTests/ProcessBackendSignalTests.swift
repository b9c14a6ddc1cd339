import Foundation
import Glibc
import InstallEngine
import Testing
import TestProcessSupport

@Suite("ProcessBackend: terminate, kill and what is left of the process group")
struct ProcessBackendSignalTests {
    private let backend = ProcessBackend()

    @Test func terminateEndsTheChildAndItsGrandchildren() async throws {
        let directory = try ProcessTestDirectory()
        defer { directory.remove() }
        let pidFile = directory.file("grandchild.pid")
        let running = backend.start(.running(.shell("sleep 300 & echo $! > '\(pidFile)'; wait")), reporter: RecordingReporter())
        let grandchild = try #require(await pidWritten(to: pidFile))
        running.terminate()
        #expect(await settledOutcome(of: running) == .signaled(SIGTERM))
        #expect(await eventually { processIsGone(grandchild) })
    }

    @Test func aChildThatTrapsTerminateSurvivesItAndDiesOnKill() async {
        let reporter = RecordingReporter()
        let script = "trap 'echo got TERM' TERM; echo ready; while :; do sleep 1; echo alive; done"
        let running = backend.start(.running(.shell(script)), reporter: reporter)
        // "alive" follows a second later; under load the poll may only see it after that.
        #expect(await eventually { reporter.lines(.stdout).first == "ready" })
        running.terminate()
        // Still running: it says so after having handled the signal.
        #expect(await eventually { reporter.lines(.stdout).drop { $0 != "got TERM" }.contains("alive") })
        running.kill()
        #expect(await settledOutcome(of: running) == .signaled(SIGKILL))
    }

    @Test func terminateAndKillAreIdempotent() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.shell("trap 'echo got TERM' TERM; echo ready; while :; do sleep 1; done")), reporter: reporter)
        #expect(await eventually { reporter.lines(.stdout) == ["ready"] })
        running.terminate()
        running.terminate()
        #expect(await eventually { reporter.lines(.stdout).contains("got TERM") })
        running.kill()
        running.kill()
        running.terminate()
        #expect(await settledOutcome(of: running) == .signaled(SIGKILL))
        #expect(reporter.lines(.stdout).filter { $0 == "got TERM" }.count == 1)
        running.terminate()
        running.kill()
    }

    @Test func aGrandchildHoldingThePipesDoesNotDelayCompletion() async throws {
        let directory = try ProcessTestDirectory()
        defer { directory.remove() }
        let pidFile = directory.file("grandchild.pid")
        let reporter = RecordingReporter()
        let script = "sleep 300 & echo $! > '\(pidFile)'; echo child done; echo progress 100 >&3; exit 0"
        let running = backend.start(.running(.shell(script)), reporter: reporter)
        #expect(await settledOutcome(of: running, within: .seconds(180)) == .exited(0))
        #expect(reporter.lines(.stdout) == ["child done"])
        #expect(reporter.channelReports == [.progress(percent: 100, message: nil)])
        let grandchild = try #require(await pidWritten(to: pidFile))
        #expect(await eventually { processIsGone(grandchild) })
    }

    @Test func killEndsARunningChild() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.shell("echo ready; exec sleep 300")), reporter: reporter)
        #expect(await eventually { reporter.lines(.stdout) == ["ready"] })
        running.kill()
        #expect(await settledOutcome(of: running) == .signaled(SIGKILL))
    }

    @Test func aProcessThatLeftTheGroupDelaysCompletionOnlyByTheDrainTimeout() async throws {
        let directory = try ProcessTestDirectory()
        defer { directory.remove() }
        let pidFile = directory.file("escapee.pid")
        let backend = ProcessBackend(drainTimeout: .milliseconds(100))
        let reporter = RecordingReporter()
        let script = "setsid sleep 300 & echo $! > '\(pidFile)'; echo started; exit 0"
        let running = backend.start(.running(.shell(script)), reporter: reporter)
        let outcome = await settledOutcome(of: running, within: .seconds(180))
        let escapee = await pidWritten(to: pidFile)
        // A limit of process groups (only a cgroup would catch it): clean up by hand.
        if let escapee { kill(escapee, SIGKILL) }
        #expect(outcome == .exited(0))
        #expect(reporter.lines(.stdout) == ["started"])
        #expect(escapee != nil)
    }
}
