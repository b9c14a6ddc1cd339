@testable import InstallDrivers
import Foundation
import InstallEngine
import Synchronization
import Testing
import TestProcessSupport

/// `PreStartedTool` with a kind of a few lines: the tool begins with its plan or its end, a
/// driver takes it over once and hears every line in order, and a stop reaches the tool.
struct PreStartedToolTests {
    /// A line on fd 3 is the plan; stdout before it is what an end before the plan says.
    struct EchoKind: PreStartedToolLines {
        typealias Translator = LineDriverRunnerTests.EchoTranslator
        typealias Reading = [String]

        enum Beginning: Sendable, Equatable {
            case plan(String)
            case ended(UpdateRunOutcome, said: [String])
        }

        func take(_ line: ToolLine, of tool: PreStartedTool<EchoKind>) {
            tool.withState { state in
                if state.handOff.handOn(line) { return }
                state.handOff.keep(line)
                guard state.beginning == nil else { return }
                if line.stream == nil {
                    tool.begin(in: &state) { _ in .plan(line.text) }
                } else {
                    state.reading.append(line.text)
                }
            }
        }

        func ended(_ outcome: UpdateRunOutcome, of tool: PreStartedTool<EchoKind>) {
            tool.begin { state in .ended(outcome, said: state.reading) }
        }

        static func start(_ script: String) -> PreStartedTool<EchoKind> {
            let tool = PreStartedTool(kind: EchoKind(), reading: [])
            tool.start(ChildSpec(command: .shell(script)), backend: ProcessBackend())
            return tool
        }
    }

    /// Waits, off the concurrency pool, for `tool`'s beginning.
    private static func beginning(of tool: PreStartedTool<EchoKind>) async -> EchoKind.Beginning {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: tool.waitForBeginning()) }
        }
    }

    private static func texts(_ reporter: RecordingDriverReporter) -> [String] {
        reporter.reports.withLock { $0 }.map { report in
            if case .update(_, .output(_, let text)) = report { return text }
            if case .jobMessage(let text?) = report { return text }
            return "\(report)"
        }
    }

    @Test func theDriverThatTakesTheToolOverHearsTheLinesKeptThenTheLaterOnes() async {
        let go = "/tmp/installtop-prestarted-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        defer { unlink(go) }
        let tool = EchoKind.start("echo before; echo the-plan >&3; while [ ! -e \(go) ]; do sleep 0.01; done; echo after")
        #expect(await Self.beginning(of: tool) == .plan("the-plan"))
        #expect(tool.canBeTakenOver)
        let reporter = RecordingDriverReporter()
        let runner = LineDriverRunner.takingOver(tool, translator: LineDriverRunnerTests.EchoTranslator(), state: 0, reporter: reporter)
        #expect(runner != nil && !tool.canBeTakenOver)
        #expect(LineDriverRunner.takingOver(tool, translator: LineDriverRunnerTests.EchoTranslator(), state: 0, reporter: reporter) == nil)
        #expect(await eventually { Self.texts(reporter).count == 2 })
        #expect(FileManager.default.createFile(atPath: go, contents: nil))
        #expect(await runner?.outcome == .exited(0))
        #expect(await eventually { Self.texts(reporter).last?.hasPrefix("ended after") == true })
        let texts = Self.texts(reporter)
        // stdout and fd 3 are separate pipes: the kept lines keep their order within each.
        #expect(Set(texts.prefix(2)) == ["stdout: before", "fd3: the-plan"])
        #expect(Array(texts.dropFirst(2)) == ["stdout: after", "ended after 3 lines: exited with status 0"])
    }

    @Test func aToolThatEndsBeforeItsPlanSaysSoAndIsStillTakenOverOnce() async {
        let tool = EchoKind.start("echo nothing to do; exit 3")
        #expect(await Self.beginning(of: tool) == .ended(.exited(3), said: ["nothing to do"]))
        #expect(!tool.stopRequested)
        #expect(tool.takeOver() != nil)
        #expect(tool.takeOver() == nil && !tool.canBeTakenOver)
    }

    @Test func aStopInterruptsTheToolBeforeAnyDriverTookItOver() async {
        let tool = EchoKind.start("echo ready; exec sleep 600")
        #expect(await eventually { tool.withState { $0.reading } == ["ready"] })
        tool.stop()
        #expect(tool.stopRequested)
        #expect(await Self.beginning(of: tool) == .ended(.signaled(SIGINT), said: ["ready"]))
    }
}
