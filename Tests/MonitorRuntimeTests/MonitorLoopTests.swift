import Foundation
import Glibc
import Synchronization
import InstallEngine
import Monitor
import Testing
import TestProcessSupport

/// The monitor's runtime on a fake terminal: the ready gate, the frame rate, keys under a
/// flood, a hang-up and detaching.
@Suite("Monitor loop")
struct MonitorLoopTests {
    @Test("no frame until the link says the snapshot is in; the first frame shows all of it")
    func readyGate() async throws {
        let loop = try RunningLoop()
        defer { loop.terminal.send(signal: SIGTERM) }
        for job in 1...3 { loop.startJob(job) }
        // Once the loop has gone round twice more it has applied the events and could have drawn.
        let passes = loop.terminal.passes
        loop.terminal.type(.character("j"))
        #expect(await eventually { loop.terminal.passes >= passes + 1 })
        loop.terminal.type(.character("k"))
        #expect(await eventually { loop.terminal.passes >= passes + 2 })
        // Before `.ready` it draws only once its patience (0.5 s) has run out, as on a loaded
        // machine (where the two passes above may take that long).
        #expect(loop.terminal.frames.allSatisfy { $0.at - loop.startedAt >= .milliseconds(500) }, "a frame was drawn before .ready")
        loop.link.post(.ready)
        #expect(await eventually { !loop.terminal.frames.isEmpty })
        let first = try #require(loop.terminal.frames.first).lines.joined(separator: "\n")
        #expect(first.contains("Job 1") && first.contains("Job 2") && first.contains("Job 3"), "\(first)")
    }

    @Test("idle, the loop runs its idle action once, and again only after something happened; never while a job runs")
    func idleAction() async throws {
        let loop = try RunningLoop(idleDelay: .milliseconds(50))
        defer { loop.terminal.send(signal: SIGTERM) }
        loop.startJob(1)
        loop.link.post(.ready)
        // A running job ticks by itself: once a tick has drawn a frame a second after the
        // first, an idle action would have been due twenty times over.
        #expect(await eventually {
            let frames = loop.terminal.frames
            return frames.count >= 2 && frames[frames.count - 1].at - frames[0].at >= .seconds(1)
        })
        #expect(loop.idleActions == 0, "the idle action ran while a job was running")
        loop.link.post(.updateCompleted(job: 1, index: 0, updateID: "u1-0", result: UpdateInstallationResult(resultCode: .succeeded)))
        loop.link.post(.jobCompleted(job: 1, result: .combining([UpdateInstallationResult(resultCode: .succeeded)], abortRequested: false)))
        #expect(await eventually { loop.idleActions == 1 })
        // With nothing due, the loop now sleeps until input: one key, one more idle action.
        let passes = loop.terminal.passes
        loop.terminal.type(.character("j"))
        #expect(await eventually { loop.terminal.passes > passes })
        #expect(await eventually { loop.idleActions == 2 })
        #expect(loop.idleActions == 2)
    }

    @Test("a flood of events draws at most one frame every 33 ms")
    func frameRate() async throws {
        let loop = try RunningLoop()
        defer { loop.terminal.send(signal: SIGTERM) }
        loop.startJob(1)
        loop.link.post(.ready)
        // Flooding from a thread of its own (a task yielding on a loaded test pool would post
        // only now and then) until five frames are drawn.
        let flooding = FloodSwitch()
        let link = loop.link
        let producer = Thread {
            var percent = 0.0
            while flooding.isOn {
                percent = percent >= 99 ? 0 : percent + 0.01
                link.post(.progress(job: 1, index: 0, updatePercent: percent, jobPercent: 0, message: nil))
            }
        }
        producer.start()
        defer { flooding.stop() }
        _ = await eventually { loop.terminal.frames.count >= 5 }
        flooding.stop()
        let times = loop.terminal.frames.map(\.at)
        #expect(times.count >= 2, "the flood was drawn more than once")
        for (earlier, later) in zip(times, times.dropFirst()) {
            // A few ms of tolerance for the poll timeout's rounding to whole milliseconds.
            #expect(later - earlier >= .milliseconds(31), "frames \(later - earlier) apart")
        }
    }

    @Test("a key typed during a flood of events is answered")
    func keysFirstUnderAFlood() async throws {
        let loop = try RunningLoop()
        loop.link.post(.ready)
        let flooding = FloodSwitch()
        let link = loop.link
        let producer = Thread {
            var line = 0
            while flooding.isOn {
                line += 1
                link.post(.output(job: 1, index: 0, stream: .stdout, line: "line \(line)"))
            }
        }
        loop.startJob(1)
        producer.start()
        defer { flooding.stop() }
        #expect(await eventually { !loop.terminal.frames.isEmpty })
        loop.terminal.type(.character("A"))
        #expect(await eventually { loop.terminal.frames.last?.lines.joined().contains("Abort the 1 unfinished job?") == true },
                "the question was not shown during the flood")
        loop.terminal.type(.character("y"))
        #expect(await eventually { loop.link.performed == [.abortAll(force: false)] })
        flooding.stop()
        loop.terminal.send(signal: SIGTERM)
    }

    @Test("a hang-up aborts every job and quits once they have completed")
    func hangUp() async throws {
        let loop = try RunningLoop()
        loop.startJob(1)
        loop.link.post(.ready)
        #expect(await eventually { !loop.terminal.frames.isEmpty })
        loop.terminal.hangUp()
        #expect(await eventually { loop.link.performed == [.abortAll(force: false)] })
        #expect(loop.result == nil, "it waits for the aborted job")
        loop.link.post(.updateCompleted(job: 1, index: 0, updateID: "u1-0", result: UpdateInstallationResult(resultCode: .aborted)))
        loop.link.post(.jobCompleted(job: 1, result: .combining([UpdateInstallationResult(resultCode: .aborted)], abortRequested: true)))
        #expect(await eventually { loop.result == true }, "quit while jobs ran")
    }

    @Test("a running update that prints nothing: its elapsed time and moving block advance with no key")
    func quietUpdateAdvances() async throws {
        let clock = ManualClock()
        let loop = try RunningLoop(clock: clock)
        defer { loop.terminal.send(signal: SIGTERM) }
        loop.startJob(1, at: clock.now)
        loop.link.post(.ready)
        #expect(await eventually { !loop.terminal.frames.isEmpty })
        // Half a second at a time: each step is a tick due, which the loop must send by itself
        // (it wakes at most a tick interval of real time later) and draw.
        var rows: [String] = []
        for step in 1...6 {
            let drawn = loop.terminal.frames.count
            clock.advance(by: 0.5)
            #expect(await eventually { loop.terminal.frames.count > drawn }, "no frame after \(Double(step) / 2) s")
            rows.append(loop.terminal.frames.last?.lines.first { $0.contains("u1-0") } ?? "")
        }
        let last = try #require(rows.last)
        #expect(last.contains("0:03"), "\(last)")
        // The moving block: the row (its elapsed time aside) differs from one frame to the next.
        let bars = Set(rows.map { $0.replacingOccurrences(of: #"\d:\d\d"#, with: "", options: .regularExpression) })
        #expect(bars.count > 1, "the bar never moved: \(rows)")
    }

    @Test("a status message expires while a job runs, with no key pressed")
    func statusExpiresWhileRunning() async throws {
        let clock = ManualClock()
        let loop = try RunningLoop(clock: clock)
        defer { loop.terminal.send(signal: SIGTERM) }
        loop.startJob(1, at: clock.now)
        loop.link.post(.ready)
        loop.terminal.type(.character("t"))
        #expect(await eventually { loop.terminal.frames.last?.lines.joined().contains("Theme:") == true })
        clock.advance(by: StatusMessage.lifetime + 0.5)
        #expect(await eventually { loop.terminal.frames.last?.lines.joined().contains("Theme:") == false },
                "the message outlived its lifetime")
    }

    @Test("attached, d detaches at once and the jobs are left alone")
    func detach() async throws {
        let loop = try RunningLoop(attached: true)
        loop.startJob(1)
        loop.link.post(.ready)
        #expect(await eventually { !loop.terminal.frames.isEmpty })
        loop.terminal.type(.character("d"))
        #expect(await eventually { loop.result == false })
        #expect(loop.link.performed.isEmpty)
    }
}

/// Lets a producer thread know when to stop flooding.
private final class FloodSwitch: Sendable {
    private let on = Atomic(true)
    var isOn: Bool { on.load(ordering: .relaxed) }
    func stop() { on.store(false, ordering: .relaxed) }
}
