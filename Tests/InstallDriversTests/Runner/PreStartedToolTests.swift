@testable import InstallDrivers
import Foundation
import InstallEngine
import Synchronization
import Testing

/// `PreStartedTool` with a kind of a few lines: the tool begins with its plan or its end, a
/// driver takes it over once and hears every line in order, and a stop reaches the tool.
struct PreStartedToolTests {
    /// A line on fd 3 is the plan; stdout before it is what an end before the plan says.
    final class EchoKind: PreStartedToolKind {
        typealias Translator = LineDriverRunnerTests.EchoTranslator
        typealias Reading = [String]

        enum Beginning: Sendable, Equatable {
            case plan(String)
            case ended(UpdateRunOutcome, said: [String])
        }

        let tool = PreStartedTool<EchoKind>(reading: [])

        func take(_ line: ToolLine) {
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

        func ended(_ outcome: UpdateRunOutcome) {
            tool.begin { state in .ended(outcome, said: state.reading) }
        }

        static func start(_ script: String) -> EchoKind {
            let kind = EchoKind()
            kind.tool.start(ChildSpec(command: .shell(script)), for: kind, backend: ProcessBackend())
            return kind
        }

        /// Waits, off the concurrency pool, for the tool's beginning.
        func beginning() async -> Beginning {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { [tool] in continuation.resume(returning: tool.waitForBeginning()) }
            }
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
        let kind = EchoKind.start("echo before; echo the-plan >&3; while [ ! -e \(go) ]; do sleep 0.01; done; echo after")
        #expect(await kind.beginning() == .plan("the-plan"))
        #expect(kind.tool.canBeTakenOver)
        let reporter = RecordingDriverReporter()
        let runner = LineDriverRunner.takingOver(kind.tool, translator: LineDriverRunnerTests.EchoTranslator(), state: 0, reporter: reporter)
        #expect(runner != nil && !kind.tool.canBeTakenOver)
        #expect(LineDriverRunner.takingOver(kind.tool, translator: LineDriverRunnerTests.EchoTranslator(), state: 0, reporter: reporter) == nil)
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
        let kind = EchoKind.start("echo nothing to do; exit 3")
        #expect(await kind.beginning() == .ended(.exited(3), said: ["nothing to do"]))
        #expect(!kind.tool.stopRequested)
        #expect(kind.tool.takeOver() != nil)
        #expect(kind.tool.takeOver() == nil && !kind.tool.canBeTakenOver)
    }

    @Test func aStopInterruptsTheToolBeforeAnyDriverTookItOver() async {
        let kind = EchoKind.start("echo ready; exec sleep 600")
        #expect(await eventually { kind.tool.withState { $0.reading } == ["ready"] })
        kind.tool.stop()
        #expect(kind.tool.stopRequested)
        #expect(await kind.beginning() == .ended(.signaled(SIGINT), said: ["ready"]))
    }
}
