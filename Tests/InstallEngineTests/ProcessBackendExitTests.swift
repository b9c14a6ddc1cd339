import Glibc
import InstallEngine
import Testing

@Suite("ProcessBackend: how a child ends")
struct ProcessBackendExitTests {
    private let backend = ProcessBackend()

    @Test func exitZeroIsExitedZero() async {
        let running = backend.start(.running(.shell("exit 0")), reporter: RecordingReporter())
        #expect(await settledOutcome(of: running) == .exited(0))
    }

    @Test func exitThreeIsExitedThree() async {
        let running = backend.start(.running(.shell("exit 3")), reporter: RecordingReporter())
        #expect(await settledOutcome(of: running) == .exited(3))
    }

    @Test func aChildKilledBySignalIsSignaled() async {
        let running = backend.start(.running(.shell("kill -KILL $$")), reporter: RecordingReporter())
        #expect(await settledOutcome(of: running) == .signaled(SIGKILL))
    }

    @Test func everyReportComesBeforeTheOutcome() async {
        let reporter = RecordingReporter()
        let running = backend.start(.running(.shell("i=0; while [ $i -lt 2000 ]; do echo line $i; i=$((i+1)); done")), reporter: reporter)
        #expect(await settledOutcome(of: running) == .exited(0))
        // No polling here: the outcome promises that every report already happened.
        #expect(reporter.lines(.stdout).count == 2000)
        #expect(reporter.lines(.stdout).last == "line 1999")
    }

    @Test func theOutcomeCanBeAwaitedByManyCallersAndAgain() async {
        let running = backend.start(.running(.shell("exit 7")), reporter: RecordingReporter())
        async let first = running.outcome
        async let second = running.outcome
        let both = await [first, second]
        #expect(both == [.exited(7), .exited(7)])
        #expect(await running.outcome == .exited(7))
    }
}
