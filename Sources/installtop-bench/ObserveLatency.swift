import EngineDaemon
import EngineWire
import Foundation
import Glibc
import InstallEngine
import Synchronization

/// The time from a dpkg status line to its event at a subscriber (issue 21: median ≤ 50 ms):
/// this process writes the lines as dpkg does, into a real `installtop-relay status` (its
/// stdin a pipe), which sends them to an engine server in this process; a client subscribed on
/// the socket takes the time each line's `progress` event arrives. One line at a time, each
/// after the previous one's event, so no line waits behind another.
enum ObserveLatency {
    static func run(relay: String, packages: Int = 200) {
        let queue = JobQueue(backend: ProcessBackend(), configuration: EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-bench"))
        guard let (server, directory) = DaemonBenchmarks.startServer(queue: queue, backlogLimit: 8 << 20) else { return }
        defer { DaemonBenchmarks.stop(server, directory) }
        guard let client = try? EngineClient(path: server.socketPath), (try? client.send(.subscribe)) != nil else {
            return print("  could not subscribe")
        }
        defer { client.close() }
        let arrivals = Mutex<[Int: ContinuousClock.Instant]>([:])
        let reader = Thread {
            while let message = try? client.nextMessage() {
                guard case .event(let event) = message, case .progress(let progress) = event.kind, progress.message == "Unpacking" else { continue }
                let now = ContinuousClock.now
                arrivals.withLock { $0[progress.index] = now }
            }
        }
        reader.start()

        let input = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: relay)
        process.arguments = ["status", "--socket", server.socketPath]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return print("  could not start the relay: \(error)") }
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        let names = (0..<packages).map { String(format: "latency-%03d", $0) }
        // dpkg -i's first lines name every package: the job (its plan from dpkg's lines) has them all.
        input.fileHandleForWriting.write(Data(names.map { "processing: install: \($0)\n" }.joined().utf8))
        var latencies: [Double] = []
        for (index, name) in names.enumerated() {
            let written = ContinuousClock.now
            input.fileHandleForWriting.write(Data("status: \(name): half-installed\n".utf8))
            let deadline = written + .seconds(5)
            var arrived: ContinuousClock.Instant?
            while arrived == nil, ContinuousClock.now < deadline {
                arrived = arrivals.withLock { $0[index] }
                if arrived == nil { usleep(100) }
            }
            guard let arrived else { return print("  no event for \(name) within 5 s") }
            latencies.append(Self.milliseconds(arrived - written))
        }
        latencies.sort()
        print(String(format: "  dpkg status line → event at a subscriber (relay, engine, socket), %d lines: median %.2f ms, p95 %.2f ms, max %.2f ms (goal: median ≤ 50 ms)",
                     latencies.count, latencies[latencies.count / 2], latencies[latencies.count * 95 / 100], latencies.last ?? 0))
    }

    private static func milliseconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
    }
}
