import EngineDaemon
import EngineWire
import Foundation
import InstallDrivers
import InstallEngine
import Monitor
import Synchronization

/// Benchmarks of fleet runs (issue 12): a synthetic fleet through the driver protocol, the
/// monitor's frame and an attach with 1,000 host jobs, and the latency from a task's end, as
/// the driver writes it, to the event reaching the engine's subscribers.
enum FleetBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "fleet-protocol", run: protocolStream),
        Benchmark(name: "fleet-latency", run: latency),
    ]

    static let hosts = 1_000
    static let tasks = 20

    /// 1,000 hosts × 20 tasks (a plan per host, then started and finished per task, then each
    /// host's end) written by a stand-in driver on fd 3, through `ProtocolSessionDriver`, the
    /// queue and a subscriber that encodes every event as `--json` does. Goal: ≤ 0.5 s of
    /// installtop's CPU. Then the monitor's frame with those 1,000 host jobs (goal ≤ 2 ms) and
    /// an attach to them over the daemon's socket (goal ≤ 150 ms).
    static func protocolStream() async {
        let folder = FileManager.default.temporaryDirectory.appending(path: "installtop-bench-fleet-\(getpid())")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stream = folder.appending(path: "stream.jsonl")
        var text = #"{"type":"hello","protocol":1,"driver":"bench"}"# + "\n"
        let plannedUpdates = (1...tasks).map { #"{"id":"Task \#($0)","title":"Task \#($0)"}"# }.joined(separator: ",")
        for host in 1...hosts {
            text += #"{"type":"plan","job":"1/h\#(host)","name":"h\#(host)","updates":[\#(plannedUpdates)]}"# + "\n"
        }
        for task in 1...tasks {
            for host in 1...hosts { text += #"{"type":"started","job":"1/h\#(host)","update":"Task \#(task)"}"# + "\n" }
            for host in 1...hosts {
                text += #"{"type":"finished","job":"1/h\#(host)","update":"Task \#(task)","result":"succeeded","changed":\#(host % 3 == 0)}"# + "\n"
            }
        }
        for host in 1...hosts { text += #"{"type":"jobEnded","job":"1/h\#(host)","reason":"done"}"# + "\n" }
        try? text.write(to: stream, atomically: true, encoding: .utf8)

        let queue = JobQueue(backend: ProcessBackend())
        let encoded = Mutex(0)
        queue.subscribe { event in encoded.withLock { $0 += EventCoding.line(event).count } }
        let cpuBefore = cpuSeconds()
        let wall = ContinuousClock().measure {
            let done = DispatchSemaphore(value: 0)
            Task.detached {
                queue.submitSession(ProtocolSessionDriver(command: ["/bin/sh", "-c", "cat '\(stream.path)' >&3"]))
                await queue.waitUntilIdle()
                done.signal()
            }
            done.wait()
        }
        let cpu = cpuSeconds() - cpuBefore
        let model = queue.snapshot()
        let succeeded = model.jobs.filter { $0.result?.resultCode == .succeeded }.count
        print("  \(hosts) hosts × \(tasks) tasks (\(text.split(separator: "\n").count) protocol lines, \(encoded.withLock { $0 }) bytes of JSON events): "
              + "\(String(format: "%.3f", cpu)) s of installtop's CPU (goal ≤ 0.5 s), wall \(String(format: "%.0f", milliseconds(wall))) ms; \(succeeded)/\(hosts) hosts succeeded")

        // The monitor with the 1,000 host jobs.
        var state = MonitorState(width: 200, height: 60, now: Date())
        _ = state.handle(.engineEvents(model.replayEvents()))
        let theme = ThemeCatalog(userDirectory: nil).themes[0]
        var frames: [Duration] = []
        var cells = 0
        for _ in 0..<500 {
            frames.append(ContinuousClock().measure { cells &+= MonitorRenderer.render(state, theme: theme).cells.count })
        }
        frames.sort()
        print("  monitor frame with \(model.jobs.count) host jobs, 200×60: median \(String(format: "%.3f", milliseconds(frames[frames.count / 2]))) ms, "
              + "p99 \(String(format: "%.3f", milliseconds(frames[frames.count * 99 / 100]))) ms (goal ≤ 2 ms)\(cells == 0 ? " (nothing drawn)" : "")")

        // An attach: connect, snapshot, state, first frame.
        guard let (server, directory) = DaemonBenchmarks.startServer(queue: queue, backlogLimit: 8 << 20) else { return }
        defer { DaemonBenchmarks.stop(server, directory) }
        var attaches: [Duration] = []
        for _ in 0..<10 {
            let elapsed = ContinuousClock().measure {
                guard let client = try? EngineClient(path: server.socketPath), (try? client.send(.subscribe)) != nil else { return }
                defer { client.close() }
                var attached = MonitorState(width: 200, height: 60, now: Date())
                attached.isAttached = true
                var snapshot: [EngineEvent] = []
                reading: while let message = try? client.nextMessage() {
                    switch message {
                    case .event(let event): snapshot.append(event)
                    case .snapshotEnd: break reading
                    default: break
                    }
                }
                _ = attached.handle(.engineEvents(snapshot))
                cells &+= MonitorRenderer.render(attached, theme: theme).cells.count
            }
            attaches.append(elapsed)
        }
        attaches.sort()
        print("  attach to \(model.jobs.count) host jobs (\(hosts * tasks) tasks): first frame after median "
              + "\(String(format: "%.1f", milliseconds(attaches[attaches.count / 2]))) ms, worst \(String(format: "%.1f", milliseconds(attaches.last!))) ms (goal ≤ 150 ms)")
    }

    /// A stand-in driver ends a task every 20 ms, writing the wall time into the `finished`
    /// line's reason; a subscriber takes the time the `update.completed` event reaches it. The
    /// monitor draws the event at its next frame, at most 33 ms later (30 frames/s), so the
    /// latency to the screen is at most this plus 33 ms. Goal: ≤ 50 ms median to the frame.
    static func latency() async {
        let script = """
            import json, os, time
            out = os.fdopen(3, 'w', buffering=1)
            out.write(json.dumps({"type": "plan", "job": "h1", "name": "h1", "updates": [{"id": str(i)} for i in range(200)]}) + "\\n")
            for i in range(200):
                out.write(json.dumps({"type": "started", "job": "h1", "update": str(i)}) + "\\n")
                time.sleep(0.02)
                out.write(json.dumps({"type": "finished", "job": "h1", "update": str(i), "result": "succeeded", "reason": repr(time.time())}) + "\\n")
            """
        let latencies = Mutex<[Double]>([])
        let queue = JobQueue(backend: ProcessBackend())
        queue.subscribe { event in
            guard case .updateCompleted(let completion) = event.kind, let sent = completion.result.reason.flatMap(Double.init) else { return }
            let now = Date().timeIntervalSince1970
            latencies.withLock { $0.append((now - sent) * 1000) }
        }
        queue.submitSession(ProtocolSessionDriver(command: ["/usr/bin/python3", "-c", script]))
        await queue.waitUntilIdle()
        let sorted = latencies.withLock { $0 }.sorted()
        guard !sorted.isEmpty else {
            print("  no task ended (is /usr/bin/python3 there?)")
            return
        }
        let median = sorted[sorted.count / 2]
        print("  a task's end written by the driver → the event at a subscriber: median \(String(format: "%.2f", median)) ms, "
              + "p90 \(String(format: "%.2f", sorted[sorted.count * 9 / 10])) ms of \(sorted.count); to the monitor's frame at most "
              + "\(String(format: "%.1f", median + 33.3)) ms (goal ≤ 50 ms median)")
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
