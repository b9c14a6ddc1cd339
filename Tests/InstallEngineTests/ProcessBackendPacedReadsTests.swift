import Foundation
import InstallEngine
import Synchronization
import Testing
import TestProcessSupport

/// `ChildSinks.afterReadsInterval` above zero paces the reading: a trickle is read once per
/// interval, a flood at once, and the exit is seen at once.
@Suite("ProcessBackend: paced reading")
struct ProcessBackendPacedReadsTests {
    /// Every stdout line, with when it was handed on.
    private final class Lines: Sendable {
        private let entries = Mutex<[(line: String, at: ContinuousClock.Instant)]>([])
        func add(_ line: String) { entries.withLock { $0.append((line, .now)) } }
        var all: [String] { entries.withLock { $0.map(\.line) } }
        var count: Int { entries.withLock { $0.count } }
        /// How many times the next line came more than `gap` after the one before.
        func pauses(longerThan gap: Duration) -> Int {
            entries.withLock { entries in zip(entries, entries.dropFirst()).filter { $0.at.duration(to: $1.at) > gap }.count }
        }
        /// How many times lines were handed on apart from the line before (more than 2 ms
        /// later): the lines of one read come within microseconds of each other.
        var moments: Int {
            entries.withLock { entries in
                zip(entries, entries.dropFirst()).filter { $0.at.duration(to: $1.at) > .milliseconds(2) }.count + (entries.isEmpty ? 0 : 1)
            }
        }
    }

    private func start(_ script: String, lines: Lines, interval: Duration) -> ChildProcess {
        ProcessBackend().startChild(ChildSpec(command: .shell(script)), sinks: ChildSinks(
            stdout: .text { lines.add($0) }, stderr: .text { _ in }, channel: .text { _ in },
            afterReads: {}, atMostEvery: interval))
    }

    /// Waits for the outcome if it comes within a minute; kills the child otherwise.
    /// The child's outcome, or nil (the child killed) when it has not ended in 5 minutes: what
    /// these tests assert is how the lines were read, not how fast a loaded machine runs
    /// the writers (30 `yes | head` pipelines took over a minute at load 16).
    private func outcome(of process: ChildProcess) async -> UpdateRunOutcome? {
        let settled = Mutex(false)
        let watcher = Task {
            let outcome = await process.outcome
            settled.withLock { $0 = true }
            return outcome
        }
        guard await eventually(timeout: .seconds(300), { settled.withLock { $0 } }) else {
            process.kill()
            _ = await watcher.value
            return nil
        }
        return await watcher.value
    }

    @Test("a child that writes a line every 10 ms is read about once per interval, not once per line")
    func trickleReadOncePerInterval() async {
        let lines = Lines()
        let interval = Duration.milliseconds(300)
        let started = ContinuousClock.now
        let process = start("i=0; while [ $i -lt 20 ]; do echo line $i; i=$((i+1)); sleep 0.01; done", lines: lines, interval: interval)
        let result = await outcome(of: process)
        let elapsed = started.duration(to: .now)
        #expect(result == .exited(0))
        #expect(lines.all == (0..<20).map { "line \($0)" })
        // One read per interval, one more at the exit, and slack for a preempted poller; read
        // at once, each line would be a moment of its own (20).
        let reads = Int(elapsed / interval) + 2
        #expect(lines.moments <= reads + 2, "\(lines.moments) moments in \(elapsed) for reads every \(interval)")
    }

    @Test("a flood is not paced: 1.7 MB through a pipe paced at 5 s waits at most once")
    func floodNotPaced() async {
        let lines = Lines()
        let process = start("yes 0123456789abcdef | head -n 100000", lines: lines, interval: .seconds(5))
        // Paced like a trickle, each 64 KiB would wait the whole 5 s: 26 pauses, longer than
        // `outcome` waits. A flood's start can fill the pipe once (the poller reads its first
        // pieces faster than they come). The interval is long so that a loaded machine's
        // stalls are not taken for pauses (a flood is told by 16 KiB within an interval), and
        // a stall or two that long is allowed as well.
        #expect(await outcome(of: process) == .exited(0))
        #expect(lines.count == 100_000)
        let pauses = lines.pauses(longerThan: .milliseconds(4500))
        #expect(pauses <= 3, "\(pauses) pauses")
    }

    @Test("a flood's lines are handed on as they are read, not once per interval")
    func floodHandedOnAsRead() async {
        let lines = Lines()
        let handOns = Mutex<[ContinuousClock.Instant]>([])
        let interval = Duration.seconds(5)
        // 30 bursts of 68 KiB, 50 ms apart: each more than a pipe holds.
        let script = "i=0; while [ $i -lt 30 ]; do yes 0123456789abcdef | head -n 4000; i=$((i+1)); sleep 0.05; done"
        let process = ProcessBackend().startChild(ChildSpec(command: .shell(script)), sinks: ChildSinks(
            stdout: .text { lines.add($0) }, stderr: .text { _ in }, channel: .text { _ in },
            afterReads: { handOns.withLock { $0.append(.now) } }, atMostEvery: interval))
        #expect(await outcome(of: process) == .exited(0))
        #expect(lines.count == 120_000)
        // Held to the interval, calls would be at least 5 s apart (all but the one at the
        // exit); a flood gets one after every wake-up that read. Counted by the gaps, not by
        // the calls per elapsed time, which a loaded machine stretches.
        let times = handOns.withLock { $0 }
        let shortGaps = zip(times, times.dropFirst()).filter { $0.duration(to: $1) < interval }.count
        #expect(shortGaps >= 5, "\(times.count) calls, \(shortGaps) of them less than \(interval) after the one before")
    }

    @Test("after the exit, what a process that left the group writes is read as it comes, to its end")
    func drainAfterExitNotPaced() async throws {
        let lines = Lines()
        let directory = try ProcessTestDirectory()
        defer { directory.remove() }
        // The writer leaves the child's process group (setsid), so the kill at the exit spares
        // it; the child exits once it has left. It holds stdout for 0.6 s and ends by itself.
        // The drain's deadline is longer than `outcome` waits, so an outcome at all means it
        // settled at the writer's end of file (a loaded CI run took 24 s to get there).
        let process = ProcessBackend(drainTimeout: .seconds(150)).startChild(ChildSpec(command: .shell(
            "setsid sh -c 'touch \(directory.file("left")); sleep 0.3; echo late1; sleep 0.3; echo late2' & "
                + "while [ ! -e '\(directory.file("left"))' ]; do sleep 0.01; done; echo early")), sinks: ChildSinks(
            stdout: .text { lines.add($0) }, stderr: .text { _ in }, channel: .text { _ in },
            afterReads: {}, atMostEvery: .seconds(3600)))
        #expect(await outcome(of: process) == .exited(0))
        #expect(lines.all == ["early", "late1", "late2"])
    }

    @Test("the exit of a paced child is seen at once, and what it wrote during the pause is read")
    func exitSeenDuringPause() async throws {
        let lines = Lines()
        let directory = try ProcessTestDirectory()
        defer { directory.remove() }
        // "first" is read and the pipe paused for an hour; "second" waits in the pipe.
        let process = start("echo first; while [ ! -e '\(directory.file("go"))' ]; do sleep 0.01; done; echo second",
                            lines: lines, interval: .seconds(3600))
        let firstRead = await eventually { lines.all == ["first"] }
        _ = FileManager.default.createFile(atPath: directory.file("go"), contents: nil)
        #expect(firstRead)
        #expect(await outcome(of: process) == .exited(0))
        #expect(lines.all == ["first", "second"])
    }

    @Test("read promptly: a paced child that waits for an answer to what it wrote is read at once, not after its interval")
    func promptReadingForAChildThatWaits() async {
        let lines = Lines()
        // An hour's interval: without prompt reading, "second go" would wait in the paused pipe
        // for it (the child stays alive, so no exit drains it early).
        let process = ProcessBackend().startChild(
            ChildSpec(command: .shell("echo first; read -r a <&4; echo \"second $a\"; read -r b <&4"), controlChannel: true),
            sinks: ChildSinks(stdout: .text { lines.add($0) }, stderr: .text { _ in }, channel: .text { _ in },
                              afterReads: {}, atMostEvery: .seconds(3600), promptlyAtFirst: true))
        let firstRead = await eventually { lines.all == ["first"] }
        #expect(firstRead)
        process.sendControl("go")
        let secondRead = await eventually { lines.all == ["first", "second go"] }
        #expect(secondRead, "\(lines.all)")
        process.sendControl("end")
        #expect(await outcome(of: process) == .exited(0))
    }
}
