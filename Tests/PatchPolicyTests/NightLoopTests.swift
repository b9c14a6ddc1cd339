import PatchPolicy
import Synchronization
import Testing
import TestProcessSupport

/// The loop that runs a night around `NightMachine`: actions in order, a stamp before each
/// host starts, one line per step, notify calls, and the window's end from a manual clock.
@Suite("Policy: the night's runner loop")
struct NightLoopTests {
    static let waves = [Wave(kind: .canary, hosts: ["h1"]), Wave(kind: .percent(33), hosts: ["h2"]), Wave(kind: .rest, hosts: ["h3"])]

    /// What a loop said, stamped and notified.
    final class Record: Sendable {
        let lines = Mutex<[String]>([])
        let stamps = Mutex(0)
        let notices = Mutex<[NightNotice]>([])
    }

    static func loop(_ runner: ScriptedNightHostRunner, _ record: Record) -> NightLoop {
        NightLoop(runner: runner, writeStamp: { machine in
            record.stamps.withLock { $0 += 1 }
            runner.lastStamp.withLock { $0 = machine }
        }, notify: { notice, _ in
            record.notices.withLock { $0.append(notice) }
        }, say: { line in record.lines.withLock { $0.append(line) } })
    }

    /// A window that never closes while the test runs; returns once cancelled.
    static let neverCloses: @Sendable () async -> Void = {
        let (stream, _) = AsyncStream<Void>.makeStream()
        for await _ in stream { break }
    }

    @Test("Three waves that all pass: each host patched once, in wave order, each after a stamp that says it runs; one line per step; notified after each wave and at the end")
    func everyWavePasses() async throws {
        let runner = ScriptedNightHostRunner()
        let record = Record()
        let machine = try await Self.loop(runner, record).run(NightMachine(waves: Self.waves, atOnce: 1, tolerated: 0), resuming: false,
                                                              windowEnd: Self.neverCloses)
        #expect(machine.phase == .finished)
        #expect(runner.patched == ["h1", "h2", "h3"])
        #expect(runner.stepAtStart == ["h1": .running, "h2": .running, "h3": .running])
        #expect(runner.gates.map(\.confirmed) == [["h1"], ["h2"], ["h3"]])
        #expect(record.lines.withLock { $0 } == [
            "h1: patching (wave 1)", "h1: confirmed", "wave 1 gate passed",
            "h2: patching (wave 2)", "h2: confirmed", "wave 2 gate passed",
            "h3: patching (wave 3)", "h3: confirmed", "wave 3 gate passed",
            "night finished: every wave passed its gate",
        ])
        #expect(record.notices.withLock { $0 } == [.wavePassed(wave: 0), .wavePassed(wave: 1), .wavePassed(wave: 2), .finished])
        #expect(record.stamps.withLock { $0 } >= 7)
    }

    @Test("The canary reverts within a budget of one: the night stops at its gate; the other waves' hosts are never patched and no gate command runs")
    func canaryReverts() async throws {
        let runner = ScriptedNightHostRunner(outcomes: ["h1": .reverted(reason: "check regressed")])
        let record = Record()
        let machine = try await Self.loop(runner, record).run(NightMachine(waves: Self.waves, atOnce: 1, tolerated: 1), resuming: false,
                                                              windowEnd: Self.neverCloses)
        #expect(machine.phase == .stopped(.gateFailed(wave: 0, reason: "h1 reverted: check regressed")))
        #expect(runner.patched == ["h1"])
        #expect(runner.gates.isEmpty)
        #expect(record.lines.withLock { $0 }.last == "night stopped: wave 1 did not pass its gate: h1 reverted: check regressed")
        #expect(record.notices.withLock { $0 } == [.stopped(.gateFailed(wave: 0, reason: "h1 reverted: check regressed"))])
    }

    @Test("The gate's command fails after wave 2: the night stops there, h3 untouched")
    func gateCommandFails() async throws {
        let runner = ScriptedNightHostRunner(gates: [1: (false, "its command exited 1: site down")])
        let record = Record()
        let machine = try await Self.loop(runner, record).run(NightMachine(waves: Self.waves, atOnce: 1, tolerated: 0), resuming: false,
                                                              windowEnd: Self.neverCloses)
        #expect(machine.phase == .stopped(.gateFailed(wave: 1, reason: "its command exited 1: site down")))
        #expect(runner.patched == ["h1", "h2"])
        #expect(record.lines.withLock { $0 }.contains("wave 2 gate failed: its command exited 1: site down"))
    }

    @Test("The window closes (manual clock) while h1 runs in a wave of two: h1 finishes and is recorded, h2 never starts, the night stops")
    func windowClosesMidWave() async throws {
        let runner = ScriptedNightHostRunner(held: ["h1"])
        let record = Record()
        let (closing, close) = AsyncStream<Void>.makeStream()
        let waves = [Wave(kind: .rest, hosts: ["h1", "h2"])]
        let night = Task {
            try await Self.loop(runner, record).run(NightMachine(waves: waves, atOnce: 1, tolerated: 0), resuming: false) {
                for await _ in closing { break }
            }
        }
        #expect(await eventually(every: .milliseconds(1)) { runner.patched == ["h1"] })
        close.yield()
        #expect(await eventually(every: .milliseconds(1)) { record.lines.withLock { $0 }.contains { $0.hasPrefix("the window closed") } })
        runner.release("h1")
        let machine = try await night.value
        #expect(machine.phase == .stopped(.windowClosed))
        #expect(machine.steps == ["h1": .confirmed, "h2": .pending])
        #expect(runner.patched == ["h1"])
        #expect(record.lines.withLock { $0 }.suffix(2) == ["h1: confirmed", "night stopped: the window closed"])
    }

    @Test("Resumed from a stamp that says h2 was running: h2 is recovered, never patched again; h1 is not touched; the night goes on to h3")
    func resumeRecoversTheRunningHost() async throws {
        var stamped = NightMachine(waves: Self.waves, atOnce: 1, tolerated: 0)
        _ = stamped.begin()
        _ = stamped.hostEnded("h1", outcome: .confirmed)
        _ = stamped.gateEvaluated(wave: 0, passed: true)
        #expect(stamped.steps["h2"] == .running)
        let runner = ScriptedNightHostRunner()
        let record = Record()
        let machine = try await Self.loop(runner, record).run(stamped, resuming: true, windowEnd: Self.neverCloses)
        #expect(machine.phase == .finished)
        #expect(runner.recovered == ["h2"])
        #expect(runner.patched == ["h3"])
        #expect(record.lines.withLock { $0 }.first == "h2: was running when the night was interrupted; asking its engine how it ended")
    }

    @Test("A stamp that cannot be written stops the loop with its error before the host it would record starts")
    func stampFailureStopsTheNight() async {
        struct Full: Error {}
        let runner = ScriptedNightHostRunner()
        let loop = NightLoop(runner: runner, writeStamp: { _ in throw Full() }, notify: { _, _ in }, say: { _ in })
        await #expect(throws: Full.self) {
            try await loop.run(NightMachine(waves: Self.waves, atOnce: 1, tolerated: 0), resuming: false, windowEnd: Self.neverCloses)
        }
        #expect(runner.patched.isEmpty)
    }
}
