import EngineDaemon
import EngineWire
import Foundation
import InstallEngine
import InstallEngineTesting
import Testing
import TestProcessSupport

@Suite("EngineServer: a client behind a flood has output skipped, not the connection")
struct EngineServerFloodTests {
    @Test func aClientThatFellBehindGetsANoteOfTheSkippedLinesAndTheLatestProgress() async throws {
        // 2 MiB of limit: output and progress are skipped past 512 KiB waiting; the flood is
        // about 1.5 MB, so the paused client falls behind but not 2 MiB behind in all.
        let lines = 6_000
        let text = String(repeating: "z", count: 200)
        var reports: [UpdateReport] = (0..<lines).map { .output(.stdout, "\($0) \(text)") }
        reports.append(.progress(percent: 42, message: "almost"))
        let backend = ScriptedBackend(defaultScript: UpdateScript(reports: reports, ending: .whenReleased))
        // The paused client reads nothing until the watcher has the whole flood: on a loaded
        // machine that took more than the default 120 s, and the server closed it as a stalled
        // reader (its own rule, not this test's). Here it waits as long as the test may.
        let engine = try TestEngine(backend: backend, backlogLimit: 2 << 20, idleReaderTimeout: .seconds(3600))
        defer { engine.stop() }

        let paused = try RawConnection(path: engine.socketPath)
        paused.send(WireCommand.subscribe.line() + "\n")
        var sawEnd = false
        while !sawEnd, let message = try paused.nextMessage() { sawEnd = message == .snapshotEnd }
        try #require(sawEnd)
        let watcher = try engine.subscriber()
        defer { watcher.close() }
        try #require(await eventually { watcher.messages.contains(.snapshotEnd) })

        try engine.queue.submit(name: "flood", updates: [update("flood")])
        // The whole flood has been through the server once the watcher has its last event.
        let isLastProgress = { (event: EngineEvent) -> Bool in
            if case .progress(let progress) = event.kind, progress.updatePercent == 42, progress.message == "almost" { return true }
            return false
        }
        let sawLastProgress = await eventually { watcher.liveEvents.contains(where: isLastProgress) }
        try #require(sawLastProgress, "\(Self.account(of: watcher, engine: engine))")

        // Now the paused client reads: it must get every line or a note of the ones skipped,
        // and the latest progress, and stay connected.
        var received = 0
        var skipped = 0
        var sawProgress = false
        while !sawProgress, let message = try paused.nextMessage() {
            guard case .event(let event) = message else { continue }
            switch event.kind {
            case .output(let output) where output.stream == .stdout:
                received += 1
            case .output(let output):
                let line = output.line
                let count = line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
                #expect(line.hasSuffix("lines of output skipped here: this client fell behind"), "\(line)")
                skipped += count ?? 0
            default:
                sawProgress = isLastProgress(event)
            }
        }
        #expect(sawProgress, "the latest progress arrived")
        #expect(skipped > 0, "the paused client fell behind, so some lines were skipped")
        #expect(received + skipped == lines, "every line was either sent or counted in a note: \(received) + \(skipped)")

        backend.release("flood")
        // Waits without blocking a thread of the cooperative pool, which the engine needs to
        // complete the job (reading the raw connection blocks).
        try #require(await eventually { watcher.liveEvents.contains { if case .jobCompleted = $0.kind { true } else { false } } })
        var completed = false
        while !completed, let message = try paused.nextMessage() {
            if case .event(let event) = message, case .jobCompleted = event.kind { completed = true }
        }
        #expect(completed, "the paused client is still served after catching up")
        #expect(!engine.log.contains("dropped"), "\(engine.log.all)")
    }

    /// What the watcher and the engine had when a wait gave up: enough to tell a slow machine
    /// (the engine's model still short of the flood) from events lost on the way.
    private static func account(of watcher: MessageCollector, engine: TestEngine) -> String {
        let messages = watcher.messages
        let outputs = watcher.liveEvents.filter { if case .output = $0.kind { true } else { false } }.count
        let job = engine.queue.snapshot().jobs.first
        return "the watcher has \(messages.count) messages (\(outputs) output events live), ended \(watcher.ended), error \(String(describing: watcher.error)); "
            + "the last: \(messages.suffix(3)); the engine's job: \(String(describing: job?.phase)), update percent \(String(describing: job?.updates.first?.percent)), "
            + "message \(String(describing: job?.updates.first?.message)); server log: \(engine.log.all)"
    }
}
