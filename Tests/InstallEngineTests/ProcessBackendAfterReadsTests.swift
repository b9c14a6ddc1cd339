import Foundation
import InstallEngine
import Synchronization
import Testing
import TestProcessSupport

/// `ChildSinks.afterReads`: called on the poller's thread after the lines of each wake-up that
/// read something, and before the outcome settles, so a sink that holds what its lines led to
/// until then hands everything on before the end.
@Suite("ProcessBackend: the call after each wake-up's reads")
struct ProcessBackendAfterReadsTests {
    /// What the sinks saw, in order: `out N`, `fd3 N` and `after` for each call, and when
    /// each call came.
    private final class Journal: Sendable {
        private let entries = Mutex<[String]>([])
        private let callTimes = Mutex<[ContinuousClock.Instant]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        func called() {
            add("after")
            callTimes.withLock { $0.append(.now) }
        }
        var all: [String] { entries.withLock { $0 } }
        var calls: [ContinuousClock.Instant] { callTimes.withLock { $0 } }
    }

    /// Runs `script` with every line and call going to `journal`.
    private func start(_ script: String, journal: Journal, atMostEvery interval: Duration = .zero) -> ChildProcess {
        ProcessBackend().startChild(ChildSpec(command: .shell(script)), sinks: ChildSinks(
            stdout: .text { journal.add($0) }, stderr: .text { journal.add("err " + $0) }, channel: .text { journal.add($0) },
            afterReads: { journal.called() }, atMostEvery: interval))
    }

    @Test("every line is followed by a call before the outcome; no call without a line before it")
    func afterEveryWakeUpThatRead() async throws {
        let journal = Journal()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Lines on two pipes, then silence until the test has seen them handed on, then more:
        // at least two wake-ups that read, whatever the machine's load.
        let script = """
            echo out 1; echo fd3 1 >&3; while [ ! -e '\(folder)/go' ]; do sleep 0.01; done
            echo out 2; echo fd3 2 >&3; echo last
            """
        let process = start(script, journal: journal)
        let firstHandedOn = await eventually {
            let entries = journal.all
            return entries.contains("out 1") && entries.contains("fd3 1") && entries.last == "after"
        }
        _ = FileManager.default.createFile(atPath: folder + "/go", contents: nil)
        #expect(await process.outcome == .exited(0))
        let entries = journal.all
        #expect(firstHandedOn, "\(entries)")
        // Each pipe's lines in order (the two pipes' order relative to each other is the poller's).
        #expect(entries.filter { $0.hasPrefix("out ") || $0 == "last" } == ["out 1", "out 2", "last"])
        #expect(entries.filter { $0.hasPrefix("fd3 ") } == ["fd3 1", "fd3 2"])
        // Read before the outcome: the last entry is a call, after the last line.
        #expect(entries.last == "after", "\(entries)")
        // A call only after something was read: never two in a row, never first.
        #expect(entries.first != "after")
        #expect(!zip(entries, entries.dropFirst()).contains { $0 == "after" && $1 == "after" }, "\(entries)")
        #expect(entries.filter { $0 == "after" }.count >= 2, "\(entries)")
    }

    @Test("a call held back by the interval comes when it is due, with no further read")
    func heldCallComesWhenDue() async throws {
        let journal = Journal()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // Two lines in two wake-ups within the interval, then silence until released.
        let script = """
            echo a; while [ ! -e '\(folder)/go' ]; do sleep 0.01; done
            echo b; while [ ! -e '\(folder)/release' ]; do sleep 0.02; done
            """
        let interval = Duration.seconds(2)
        let process = start(script, journal: journal, atMostEvery: interval)
        let firstCame = await eventually { journal.all == ["a", "after"] }
        _ = FileManager.default.createFile(atPath: folder + "/go", contents: nil)
        // The child says nothing more until released: the second call is the held one.
        let heldCame = await eventually { journal.all == ["a", "after", "b", "after"] }
        _ = FileManager.default.createFile(atPath: folder + "/release", contents: nil)
        #expect(await process.outcome == .exited(0))
        #expect(firstCame && heldCame, "\(journal.all)")
        let times = journal.calls
        #expect(times.count == 2 && times[0].duration(to: times[1]) >= interval, "\(times)")
    }

    /// A fresh folder for a script's gate files.
    private static func folder() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-after-reads-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        return folder
    }

    @Test("with an interval, calls are at least that far apart, except the one before the outcome, which comes at once")
    func atMostEveryInterval() async {
        let journal = Journal()
        let interval = Duration.milliseconds(150)
        // A line every 10 ms for about 400 ms: up to forty wake-ups.
        let script = "i=0; while [ $i -lt 40 ]; do echo out $i; i=$((i+1)); sleep 0.01; done"
        let process = start(script, journal: journal, atMostEvery: interval)
        #expect(await process.outcome == .exited(0))
        let entries = journal.all
        let times = journal.calls
        #expect(entries.filter { $0 != "after" } == (0..<40).map { "out \($0)" })
        #expect(entries.last == "after", "the lines after the last call were not handed on before the outcome")
        // About one call per interval (how many depends on the machine's load), not one per line.
        #expect(!times.isEmpty && times.count < 20, "\(times.count) calls for 40 lines")
        for (earlier, later) in zip(times.dropLast(), times.dropLast().dropFirst()) {
            #expect(earlier.duration(to: later) >= interval, "calls \(earlier.duration(to: later)) apart")
        }
    }
}
