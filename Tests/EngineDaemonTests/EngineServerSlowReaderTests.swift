import EngineDaemon
import EngineWire
import Foundation
import InstallEngine
import InstallEngineTesting
import Testing
import TestProcessSupport

@Suite("EngineServer: a client on a slow link is never dropped while it reads")
struct EngineServerSlowReaderTests {
    @Test func aSlowReaderGetsEveryStateChangeInOrderAndACountOfTheLinesItDidNotGet() async throws {
        // A 20 MB flood: 4 updates of 25,000 output lines of about 200 bytes, with a progress
        // report every 50 lines; the client reads 8 KB per 100 ms (80 KB/s), so it falls far
        // behind. Past a quarter of the 1 MiB limit its lines are summarised.
        let updates = 4
        let linesPerUpdate = 25_000
        let text = String(repeating: "f", count: 200)
        var reports: [UpdateReport] = []
        for line in 0..<linesPerUpdate {
            reports.append(.output(.stdout, "\(line) \(text)"))
            if line % 50 == 49 {
                reports.append(.progress(percent: Double(line + 1) / Double(linesPerUpdate) * 100, message: "line \(line + 1)"))
            }
        }
        let backend = ScriptedBackend(defaultScript: UpdateScript(reports: reports))
        let engine = try TestEngine(backend: backend, backlogLimit: 1 << 20)
        defer { engine.stop() }
        let log = EventLog()
        let subscription = engine.queue.subscribe(log.handler)
        defer { subscription.cancel() }

        let reader = try PacedReader(path: engine.socketPath, bytesPerTurn: 8 << 10, pause: .milliseconds(100), lastJob: 1)
        try #require(await eventually { reader.snapshotEnded })
        try engine.queue.submit(name: "flood", updates: (0..<updates).map { update("u\($0)") })

        // At 80 KB/s what waits for the reader takes it seconds, more on a loaded machine.
        let ended = await eventually(timeout: .seconds(300)) { reader.finished || reader.closed }
        #expect(ended && reader.finished, "the reader saw job.completed (closed: \(reader.closed)); server log: \(engine.log.all)")
        #expect(!reader.closed, "the slow reader was not closed")
        #expect(!engine.log.contains("closed") && !engine.log.contains("dropped"), "\(engine.log.all)")
        #expect(reader.error == nil, "\(reader.error ?? "")")

        let received = reader.events
        let engineEvents = log.events
        #expect(received.compactMap(Self.stateChange) == engineEvents.compactMap(Self.stateChange), "every state change, in order")
        var shown = 0
        var notShown = 0
        for event in received {
            guard case .output(let output) = event.kind else { continue }
            if let count = output.notShown { notShown += count } else { shown += 1 }
        }
        #expect(notShown > 0, "the reader fell behind, so lines were summarised")
        #expect(shown + notShown == updates * linesPerUpdate, "every line shown or counted: \(shown) + \(notShown)")
        #expect(reader.receivedBytes < 10 << 20, "it was sent far less than the flood: \(reader.receivedBytes) bytes")
        for index in 0..<updates {
            #expect(Self.lastProgress(of: index, in: received) == Self.lastProgress(of: index, in: engineEvents), "update \(index)")
        }
    }

    /// A state change as text, for comparison across the wire; `nil` for progress and output.
    private static func stateChange(_ event: EngineEvent) -> String? {
        switch event.kind {
        case .progress, .output: nil
        case .jobQueued(let descriptor): "job.queued \(descriptor.id) \(descriptor.updates.map(\.id))"
        case .jobConfirmed(let confirmation): "job.confirmed \(confirmation.job)"
        case .jobStarted(let start): "job.started \(start.job)"
        case .updateStarted(let start): "update.started \(start.job).\(start.index) \(start.updateID)"
        case .updateCompleted(let completion): "update.completed \(completion.job).\(completion.index) \(completion.result.resultCode)"
        case .jobAbortRequested(let request): "job.abortRequested \(request.job)"
        case .jobCompleted(let completion): "job.completed \(completion.job) \(completion.result.resultCode)"
        case .jobCleanedUp(let cleanUp): "job.cleanedUp \(cleanUp.job)"
        }
    }

    /// The message and whole percent of update `index`'s last progress before its completion.
    private static func lastProgress(of index: Int, in events: [EngineEvent]) -> String? {
        var last: String?
        for event in events {
            switch event.kind {
            case .progress(let progress) where progress.index == index:
                last = "\(progress.message ?? "-") \(Int((progress.updatePercent ?? -1).rounded()))"
            case .updateCompleted(let completion) where completion.index == index:
                return last
            default:
                break
            }
        }
        return nil
    }
}
