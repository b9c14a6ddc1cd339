import Glibc
@testable import InstallEngine
import Testing
import TestProcessSupport

@Suite("ProcessBackend without a pidfd: the exit is found with waitpid(WNOHANG)")
struct ProcessBackendWithoutPidfdTests {
    private let backend = ProcessBackend(watchesExitWithPidfd: false)

    @Test func exitStatusOutputAndChannelStillArrive() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.shell("echo out; echo err >&2; echo progress 50 >&3; exit 5")), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(5))
        #expect(reporter.lines(.stdout) == ["out"])
        #expect(reporter.lines(.stderr) == ["err"])
        #expect(reporter.channelReports == [.progress(percent: 50, message: nil)])
    }

    @Test func aChildThatClosedItsPipesIsStillWatched() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.shell("exec >&- 2>&- 3>&-; sleep 0.2; exit 6")), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(6))
    }

    @Test func aGrandchildHoldingThePipesDoesNotDelayCompletion() async throws {
        let directory = try ProcessTestDirectory()
        defer { directory.remove() }
        let pidFile = directory.file("grandchild.pid")
        let running = backend.start(.running(.shell("sleep 300 & echo $! > '\(pidFile)'; exit 0")), reporter: RecordingReporter())
        #expect(await settledOutcome(of: running, within: .seconds(180)) == .exited(0))
        let grandchild = try #require(await pidWritten(to: pidFile))
        #expect(await eventually { processIsGone(grandchild) })
    }

    @Test func killStillEndsTheChild() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.shell("echo ready; exec sleep 300")), reporter: reporter)
        #expect(await eventually { reporter.lines(.stdout) == ["ready"] })
        running.kill()
        #expect(await settledOutcome(of: running) == .signaled(SIGKILL))
    }
}
