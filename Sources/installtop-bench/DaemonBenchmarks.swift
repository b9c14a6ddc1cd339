import EngineDaemon
import EngineWire
import Foundation
import Glibc
import InstallEngine
import InstallEngineTesting
import Monitor
import Synchronization

/// Benchmarks of daemon mode: the socket server's fan-out and an attach's first frame, over a
/// real Unix socket in a temporary directory, on the scripted backend.
enum DaemonBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "daemon-fanout", run: fanOut),
        Benchmark(name: "daemon-attach", run: attach),
        Benchmark(name: "wire-decode", run: decode),
        Benchmark(name: "daemon-attach-terminal", run: AttachThroughTerminalBenchmark.run),
    ]

    /// 30,000 typical event lines (a third `update.completed`, two thirds `log`) read by
    /// EngineWire's parser and decoded into events, beside Foundation's JSONSerialization only
    /// parsing them: why the daemon has its own parser.
    static func decode() async {
        let time = Date()
        let lines = (0..<30_000).map { index -> [UInt8] in
            let kind: EngineEvent.Kind = index % 3 == 0
                ? .updateCompleted(job: index / 100, index: index % 100, updateID: "pkg-\(index)", result: UpdateInstallationResult(
                    resultCode: .succeeded, startedAt: time, endedAt: time.addingTimeInterval(1.234)))
                : .output(job: index / 100, index: index % 100, stream: .stdout, line: "Unpacking libc6:amd64 (2.36-9+deb12u9) over (2.36-9+deb12u8) ...")
            return Array(EventCoding.encode(EngineEvent(time: time, kind: kind)).utf8)
        }
        let clock = ContinuousClock()
        var decoded = 0
        let ours = clock.measure {
            for line in lines {
                if case .event? = try? ServerMessage.decode(line) { decoded += 1 }
            }
        }
        var parsed = 0
        let foundation = clock.measure {
            for line in lines where (try? JSONSerialization.jsonObject(with: Data(line))) != nil { parsed += 1 }
        }
        func perLine(_ duration: Duration) -> String {
            String(format: "%.2f", (Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12) / Double(lines.count))
        }
        print("  EngineWire: \(perLine(ours)) µs per line parsed and decoded (\(decoded) events)")
        print("  Foundation JSONSerialization: \(perLine(foundation)) µs per line, parsing only (\(parsed))")
        // The other way, as `--json` and the daemon write every event: progress, the most
        // frequent kind, beside the lines above.
        let events = (0..<30_000).map { (index: Int) -> EngineEvent in
            let percent = Double(index % 100)
            let kind = EngineEvent.Kind.progress(job: 1, index: index % 5000, updatePercent: percent, jobPercent: Double(index) / 300,
                                                 message: "unpacking", jobMessage: nil)
            return EngineEvent(time: time.addingTimeInterval(Double(index) / 1000), kind: kind)
        }
        var bytes = 0
        let encodedProgress = clock.measure {
            for event in events { bytes += EventCoding.line(event).count }
        }
        let encodedLines = clock.measure {
            for index in 0..<lines.count where index % 3 != 0 {
                bytes += EventCoding.line(EngineEvent(time: time, kind: .output(
                    job: 1, index: index % 100, stream: .stdout, line: "Unpacking libc6:amd64 (2.36-9+deb12u9) over (2.36-9+deb12u8) ..."))).count
            }
        }
        print("  EngineWire encoding: \(perLine(encodedProgress)) µs per progress event, "
            + "\(String(format: "%.2f", encodedLines / .microseconds(1) / Double(lines.count * 2 / 3))) µs per log line (\(bytes) bytes)")
    }

    /// 1,000 updates (10 jobs of 100, all running at once) each reporting 200 progress steps and
    /// 5 output lines, delivered to 10 subscribed clients that read and decode every line (one
    /// thread each). Goal: at least 500,000 events per second delivered in total.
    static func fanOut() async {
        let clients = 10
        var reports: [UpdateReport] = (1...200).map { .progress(percent: Double($0) / 2, message: "step \($0)") }
        reports += (1...5).map { .output(.stdout, "Unpacking part \($0) of the update ...") }
        let queue = JobQueue(
            backend: ScriptedBackend(defaultScript: UpdateScript(reports: reports)), concurrency: 10,
            configuration: EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-bench"))
        let published = Counter()
        queue.subscribe { _ in published.add() }
        guard let (server, directory) = startServer(queue: queue, backlogLimit: 1 << 30) else { return }
        defer { stop(server, directory) }

        let counters = (0..<clients).map { _ in Counter() }
        var connections: [EngineClient] = []
        for counter in counters {
            guard let client = try? EngineClient(path: server.socketPath), (try? client.send(.subscribe)) != nil else {
                print("  could not connect a client")
                return
            }
            connections.append(client)
            Thread.detachNewThread { countLines(from: client, into: counter) }
        }
        // Every client has its (empty) snapshot: reply, snapshot.begin, snapshot.end.
        await waitUntil { counters.allSatisfy { $0.value >= 3 } }

        let cpuBefore = cpuSeconds()
        let start = ContinuousClock.now
        for job in 0..<10 {
            let updates = (0..<100).map { Update(id: "u\(job)-\($0)", installCommand: .argv(["true"])) }
            _ = try? queue.submit(name: "bench \(job)", updates: updates)
        }
        await queue.waitUntilIdle()
        let events = published.value
        await waitUntil { counters.allSatisfy { $0.value >= events + 3 } }
        let elapsed = ContinuousClock.now - start
        let cpu = cpuSeconds() - cpuBefore
        for client in connections { client.close() }

        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let delivered = counters.reduce(0) { $0 + $1.value - 3 }
        print("  \(events) events from 1,000 updates to \(clients) clients: \(delivered) delivered in \(String(format: "%.3f", seconds)) s")
        print("  \(String(format: "%.0f", Double(delivered) / seconds)) events/s delivered in total (goal ≥ 500,000/s)")
        print("  \(String(format: "%.2f", cpu)) s of CPU for engine, server and clients together")
    }

    /// A queue of 10,000 updates (100 jobs of 100; 50 jobs done, one running with output, the
    /// rest queued); a client connects, subscribes, reads and decodes the snapshot into a
    /// `MonitorState` and renders the first 200×60 frame, which is what `installtop attach`
    /// does before its first draw. Goal: at most 100 ms.
    static func attach() async {
        let backend = ScriptedBackend(defaultScript: UpdateScript(reports: [.output(.stdout, "Setting up the package ...")]))
        backend.setScript(
            UpdateScript(reports: [.output(.stdout, "Unpacking ..."), .progress(percent: 42, message: "Unpacking")], ending: .whenReleased),
            for: "u51-50")
        let queue = JobQueue(backend: backend, configuration: EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-bench"))
        guard let (server, directory) = startServer(queue: queue, backlogLimit: 8 << 20) else { return }
        defer { stop(server, directory) }
        for job in 1...100 {
            let updates = (0..<100).map { Update(id: "u\(job)-\($0)", title: "Update \($0) of job \(job): libfoo 1.2.\($0)", installCommand: .argv(["true"])) }
            _ = try? queue.submit(name: "Job \(job)", updates: updates)
        }
        await backend.waitUntilStarted("u51-50")
        await waitUntil { queue.snapshot().job(51)?.updates[50].percent == 42 }
        let theme = ThemeCatalog(userDirectory: nil).themes[0]

        var times: [Duration] = []
        var lines = 0
        var phases: [Duration] = [.zero, .zero, .zero]
        for _ in 0..<20 {
            let clock = ContinuousClock()
            var cells = 0
            let started = ContinuousClock.now
            let elapsed = clock.measure {
                guard let client = try? EngineClient(path: server.socketPath), (try? client.send(.subscribe)) != nil else { return }
                defer { client.close() }
                var state = MonitorState(width: 200, height: 60, now: Date())
                state.isAttached = true
                lines = 0
                // As RemoteEngineLink and MonitorLoop do: the snapshot is applied as one batch.
                var snapshot: [EngineEvent] = []
                reading: while let message = try? client.nextMessage() {
                    lines += 1
                    switch message {
                    case .event(let event): snapshot.append(event)
                    case .snapshotBegin: phases[0] = phases[0] + (ContinuousClock.now - started)
                    case .snapshotEnd: break reading
                    default: break
                    }
                }
                phases[1] = phases[1] + (ContinuousClock.now - started)
                _ = state.handle(.engineEvents(snapshot))
                phases[2] = phases[2] + (ContinuousClock.now - started)
                cells = MonitorRenderer.render(state, theme: theme).cells.count
            }
            if cells > 0 { times.append(elapsed) }
        }
        backend.release("u51-50")
        guard !times.isEmpty else {
            print("  no attach completed")
            return
        }
        times.sort()
        let median = Double(times[times.count / 2].components.attoseconds) / 1e15 + Double(times[times.count / 2].components.seconds) * 1000
        let worst = Double(times.last!.components.attoseconds) / 1e15 + Double(times.last!.components.seconds) * 1000
        let phaseText = phases.map { String(format: "%.1f", Double($0.components.attoseconds) / 1e15 / 20 + Double($0.components.seconds) * 50) }
        print("  mean ms to snapshot.begin, snapshot.end, state applied: \(phaseText.joined(separator: ", "))")
        print("  attach to 10,000 updates (\(lines) snapshot lines): first frame after median \(String(format: "%.1f", median)) ms, worst \(String(format: "%.1f", worst)) ms of 20 (goal ≤ 100 ms)")
    }

    // MARK: - Helpers

    static func startServer(queue: JobQueue, backlogLimit: Int) -> (EngineServer, String)? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-bench-\(getpid())-\(UUID().uuidString.prefix(8))").path
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            let server = try EngineServer(
                queue: queue, history: .off("benchmark"),
                options: ServerOptions(socketPath: directory + "/engine.sock", backlogLimit: backlogLimit))
            return (server, directory)
        } catch {
            print("  could not start the server: \(error)")
            return nil
        }
    }

    static func stop(_ server: EngineServer, _ directory: String) {
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Reads and decodes every line, as an attached monitor's reader does, and counts them.
    private static func countLines(from client: EngineClient, into counter: Counter) {
        while let message = try? client.nextMessage() {
            _ = message
            counter.add()
        }
    }

    private static func waitUntil(_ condition: () -> Bool) async {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition(), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(1)) }
    }

    private final class Counter: Sendable {
        private let count = Atomic<Int>(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }
}
