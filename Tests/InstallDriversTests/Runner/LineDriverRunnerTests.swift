@testable import InstallDrivers
import Foundation
import InstallEngine
import Synchronization
import Testing
import TestProcessSupport

/// `LineDriverRunner` with a translator of a few lines: what a new line-driven kind gets
/// without writing any plumbing of its own.
struct LineDriverRunnerTests {
    /// Each line becomes an output report of update 0 naming its stream; its end says how many there were.
    struct EchoTranslator: LineTranslator {
        typealias State = Int
        typealias EndWork = String
        typealias EndFinding = String

        func translate(_ lines: ArraySlice<ToolLine>, in count: inout Int, into reports: inout [DriverReport]) {
            for line in lines {
                count += 1
                reports.append(.update(index: 0, .output(.stdout, "\(line.stream.map { "\($0)" } ?? "fd3"): \(line.text)")))
            }
        }

        func stopRequested(in count: inout Int) -> [DriverReport] {
            [.update(index: 0, .message("stopping after \(count) lines"))]
        }

        func askToStop(_ process: ChildProcess) {
            process.terminate()
        }

        /// The end's words are its work, carried out by the runner and said once found.
        func end(after outcome: UpdateRunOutcome, killed: [ProcessTree.Member]?, in count: inout Int) -> ToolEndPlan<String> {
            ToolEndPlan(work: "ended after \(count) lines: \(outcome.summary)\(killed == nil ? "" : ", killed")")
        }

        func perform(_ work: String, say: @escaping (_ make: (inout Int) -> [DriverReport]) -> Void) -> String {
            work
        }

        func end(after finding: String, of outcome: UpdateRunOutcome, in count: inout Int) -> ToolEndPlan<String> {
            ToolEndPlan(reports: [.jobMessage(finding)])
        }
    }

    private static func start(_ script: String, reporter: RecordingDriverReporter) -> LineDriverRunner<EchoTranslator> {
        LineDriverRunner.start(ChildSpec(command: .shell(script)), backend: ProcessBackend(), translator: EchoTranslator(), state: 0,
                               reporter: reporter)
    }

    private static func texts(_ reports: [DriverReport]) -> [String] {
        reports.map { report in
            switch report {
            case .update(_, .output(_, let text)): return text
            case .update(_, .message(let text)): return "message: " + text
            case .jobMessage(let text?): return text
            default: return "\(report)"
            }
        }
    }

    @Test func everyLineIsTranslatedInOrderAndTheEndComesAfterThem() async {
        let reporter = RecordingDriverReporter()
        let runner = Self.start("echo one; echo two >&3; echo three >&2; exit 3", reporter: reporter)
        let ended = Mutex<[DriverReport]?>(nil)
        runner.whenEnded { _ in ended.withLock { $0 = reporter.reports.withLock { $0 } } }
        #expect(await runner.outcome == .exited(3))
        #expect(await eventually { ended.withLock { $0 != nil } })
        // stdout, stderr and fd 3 are separate pipes: their lines keep their order within each.
        let texts = Self.texts(ended.withLock { $0 } ?? [])
        #expect(Set(texts.dropLast()) == ["stdout: one", "fd3: two", "stderr: three"])
        #expect(texts.last == "ended after 3 lines: exited with status 3")
    }

    @Test func aStopIsSaidAfterTheLinesBeforeItThenAskedOfTheProcess() async {
        let reporter = RecordingDriverReporter()
        let runner = Self.start("echo ready; exec sleep 600", reporter: reporter)
        #expect(await eventually { Self.texts(reporter.reports.withLock { $0 }).contains("stdout: ready") })
        runner.stopAtSafePoint()
        let outcome = await runner.outcome
        #expect(outcome != .exited(0))
        let texts = Self.texts(reporter.reports.withLock { $0 })
        #expect(texts.first == "stdout: ready")
        #expect(texts.dropFirst().first == "message: stopping after 1 lines")
        #expect(texts.last?.hasPrefix("ended after 1 lines") == true)
    }

    @Test("a tool is not read while the job is behind its reports (rule 8a), and loses nothing")
    func aToolIsHeldWhileTheJobIsBehind() async throws {
        let reporter = RecordingDriverReporter()
        reporter.waiting.store(ChildSinks.backlogLimit, ordering: .relaxed)
        let pidFile = "/tmp/installtop-driver-backlog-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        defer { unlink(pidFile) }
        let total = 100_000
        let runner = Self.start("echo $$ > \(pidFile); exec awk 'BEGIN { for (i = 1; i <= \(total); i++) print i \" 0123456789012345678901234567890123456789\" }'",
                                reporter: reporter)
        defer { runner.kill() }
        func toolBlocked() -> Bool {
            guard let pid = (try? String(contentsOfFile: pidFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines),
                  let wchan = try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)
            else { return false }
            return wchan.contains("pipe_write")
        }
        #expect(await eventually { toolBlocked() }, "the tool waits in its write")
        // Lines read before the hold are handed on at the runner's interval; after that,
        // nothing more comes (a look after a while, to see that nothing happens: unheld, all
        // of it is read in less).
        try await Task.sleep(for: .milliseconds(300))
        let reportedWhileHeld = reporter.reports.withLock { $0.count }
        try await Task.sleep(for: .milliseconds(300))
        #expect(toolBlocked() && reporter.reports.withLock { $0.count } == reportedWhileHeld)
        #expect(reportedWhileHeld < total / 2, "\(reportedWhileHeld) of \(total) lines reported while held")

        reporter.waiting.store(0, ordering: .relaxed)
        #expect(await runner.outcome == .exited(0))
        let ended = await eventually { Self.texts(reporter.reports.withLock { $0 }).last?.hasPrefix("ended after") == true }
        #expect(ended)
        let texts = Self.texts(reporter.reports.withLock { $0 })
        #expect(texts.dropLast() == (1...total).map { "stdout: \($0) 0123456789012345678901234567890123456789" })
    }

    @Test func aKillIsToldToTheEnd() async {
        let reporter = RecordingDriverReporter()
        let runner = Self.start("echo ready; exec sleep 600", reporter: reporter)
        #expect(await eventually { !reporter.reports.withLock { $0 }.isEmpty })
        runner.kill()
        _ = await runner.outcome
        #expect(Self.texts(reporter.reports.withLock { $0 }).last?.hasSuffix(", killed") == true)
    }

    @Test func aCommandThatCannotStartEndsThroughTheTranslator() async {
        let reporter = RecordingDriverReporter()
        let runner = LineDriverRunner.start(ChildSpec(command: .argv(["/nonexistent/tool"])), backend: ProcessBackend(),
                                            translator: EchoTranslator(), state: 0, reporter: reporter)
        guard case .failedToStart = await runner.outcome else {
            Issue.record("expected a failure to start")
            return
        }
        #expect(Self.texts(reporter.reports.withLock { $0 }).last?.hasPrefix("ended after 0 lines") == true)
    }
}
