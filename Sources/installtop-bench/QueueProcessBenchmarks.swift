import Foundation
import Glibc
import InstallEngine
import InstallHistory
import Synchronization

/// Benchmarks of the whole engine (JobQueue, installers, history) over real children.
enum QueueProcessBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "queue-spawn-overhead", run: queueSpawnOverhead),
        Benchmark(name: "concurrent-sleep", run: concurrentSleep),
    ]

    // MARK: - Benchmarks

    /// One job of 500 × /bin/true through a JobQueue, with the history off and then on,
    /// against the same 500 runs in a shell loop (one update). Goal with history on: at most
    /// 1.25 times the shell loop.
    static func queueSpawnOverhead() async {
        let runs = 500
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-bench-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = await runJob(of: 20, history: nil)

        let clock = ContinuousClock()
        let shell = await clock.measure {
            let update = Update(id: "loop", installCommand: .shell("for i in $(seq \(runs)); do /bin/true; done"))
            _ = await runJob(updates: [update], history: nil)
        }
        let withoutHistory = await runJob(of: runs, history: nil)
        let store: HistoryStore
        do {
            store = try HistoryStore(path: folder + "/history.sqlite3")
        } catch {
            print("  failed: \(error)")
            return
        }
        let withHistory = await runJob(of: runs, history: HistoryRecorder(store: store))
        print("  \(runs) × /bin/true in a shell loop (one update): \(milliseconds(shell)) (\(microseconds(shell / runs)) each)")
        print("  \(runs) × /bin/true as one job, history off: \(milliseconds(withoutHistory)) (\(microseconds(withoutHistory / runs)) each), "
            + "ratio \(format(withoutHistory / shell))×")
        print("  \(runs) × /bin/true as one job, history on:  \(milliseconds(withHistory)) (\(microseconds(withHistory / runs)) each), "
            + "ratio \(format(withHistory / shell))×   (goal ≤ 1.25×)")
    }

    /// 1,000 jobs of one `sleep 1` update each, all running at once (`--concurrency 1000`).
    /// Prints the wall time and the most threads the process had meanwhile (sampled from
    /// /proc/self/status every 5 ms). Goals: ≤ 2 s wall, ≤ 8 threads.
    static func concurrentSleep() async {
        let jobs = 1000
        let queue = JobQueue(backend: ProcessBackend(), concurrency: jobs, configuration: configuration)
        let threadsBefore = threadCount()
        let sampler = ThreadCountSampler()
        let clock = ContinuousClock()
        let wall = await clock.measure {
            for index in 0..<jobs {
                _ = try? queue.submit(name: "sleep \(index)", updates: [Update(id: "sleep", installCommand: .argv(["sleep", "1"]))])
            }
            await queue.waitUntilIdle()
        }
        let peak = sampler.stop()
        let failed = queue.snapshot().jobs.filter { $0.result?.resultCode != .succeeded }.count
        print("  \(jobs) concurrent `sleep 1` updates: wall \(milliseconds(wall)) (goal ≤ 2 s), \(failed) not succeeded")
        print("  threads: \(threadsBefore) before, peak \(peak) including the sampler (goal ≤ 8)")
    }

    // MARK: - Running

    private static let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-bench")

    private static func runJob(of count: Int, history: HistoryRecorder?) async -> Duration {
        let updates = (0..<count).map { Update(id: "u\($0)", installCommand: .argv(["/bin/true"])) }
        return await ContinuousClock().measure { _ = await runJob(updates: updates, history: history) }
    }

    /// Runs one job on a fresh queue; returns how many updates did not succeed.
    private static func runJob(updates: [Update], history: HistoryRecorder?) async -> Int {
        let queue = JobQueue(backend: ProcessBackend(), configuration: configuration)
        if let history {
            queue.subscribe { event in try? history.record(event) }
        }
        _ = try? queue.submit(name: "bench", updates: updates)
        await queue.waitUntilIdle()
        return queue.snapshot().jobs.flatMap(\.updates).filter { $0.result.resultCode != .succeeded }.count
    }

    /// Samples the thread count on a thread of its own until stopped.
    private final class ThreadCountSampler: Sendable {
        private let sampling = Atomic<Bool>(true)
        private let peak = Atomic<Int>(0)
        private let done = Atomic<Bool>(false)

        init() {
            Thread { [self] in
                while sampling.load(ordering: .relaxed) {
                    peak.store(max(peak.load(ordering: .relaxed), threadCount()), ordering: .relaxed)
                    usleep(5_000)
                }
                done.store(true, ordering: .releasing)
            }.start()
        }

        /// Stops sampling and returns the most threads seen.
        func stop() -> Int {
            sampling.store(false, ordering: .relaxed)
            while !done.load(ordering: .acquiring) { usleep(1_000) }
            return peak.load(ordering: .relaxed)
        }
    }

    /// The `Threads:` line of /proc/self/status.
    private static func threadCount() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
            return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }

    // MARK: - Formatting

    private static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.1f ms", duration / .milliseconds(1))
    }

    private static func microseconds(_ duration: Duration) -> String {
        String(format: "%.0f µs", duration / .microseconds(1))
    }

    private static func format(_ ratio: Double) -> String {
        String(format: "%.2f", ratio)
    }
}
