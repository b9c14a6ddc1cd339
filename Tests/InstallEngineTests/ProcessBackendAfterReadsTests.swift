import InstallEngine
import Synchronization
import Testing

/// `ChildSinks.afterReads`: called on the poller's thread after the lines of each wake-up that
/// read something, and before the outcome settles, so a sink that holds what its lines led to
/// until then hands everything on before the end.
@Suite("ProcessBackend: the call after each wake-up's reads")
struct ProcessBackendAfterReadsTests {
    /// What the sinks saw, in order: `out N`, `fd3 N` and `after` for each call.
    private final class Journal: Sendable {
        private let entries = Mutex<[String]>([])
        func add(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    @Test("every line is followed by a call before the outcome; no call without a line before it")
    func afterEveryWakeUpThatRead() async {
        let journal = Journal()
        // Lines in bursts with pauses between, on two pipes: several wake-ups, some reading both.
        let script = "for i in 1 2 3 4 5; do echo out $i; echo fd3 $i >&3; sleep 0.02; done; echo last"
        let process = ProcessBackend().startChild(ChildSpec(command: .shell(script)), sinks: ChildSinks(
            stdout: .text { journal.add($0) }, stderr: .text { journal.add("err " + $0) }, channel: .text { journal.add($0) },
            afterReads: { journal.add("after") }))
        #expect(await process.outcome == .exited(0))
        let entries = journal.all
        // Each pipe's lines in order (the two pipes' order relative to each other is the poller's).
        #expect(entries.filter { $0.hasPrefix("out ") || $0 == "last" } == ["out 1", "out 2", "out 3", "out 4", "out 5", "last"])
        #expect(entries.filter { $0.hasPrefix("fd3 ") } == ["fd3 1", "fd3 2", "fd3 3", "fd3 4", "fd3 5"])
        // Read before the outcome: the last entry is a call, after the last line.
        #expect(entries.last == "after", "\(entries)")
        // A call only after something was read: never two in a row, never first.
        #expect(entries.first != "after")
        #expect(!zip(entries, entries.dropFirst()).contains { $0 == "after" && $1 == "after" }, "\(entries)")
        // The pauses make several wake-ups.
        #expect(entries.filter { $0 == "after" }.count >= 2, "\(entries)")
    }
}
