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
        Benchmark(name: "output-flood-job", run: outputFloodJob),
    ]

    // MARK: - Benchmarks

    /// One job of 500 × /bin/true through a JobQueue, with the history off and then on,
    /// against the same 500 runs in a shell loop (one update). Goal with history on: at most
    /// 1.25 times the shell loop.
    ///
    /// This machine's speed drifts by a third from one second to the next, so the runs take
    /// turns, five rounds, and the medians are printed, of the times and of each round's
    /// ratios, with installtop's own CPU per update (steadier than wall time). Also printed:
    /// a bare `posix_spawn` + `waitpid` loop in this process; the least a runner can cost that
    /// gives each child what Documentation/MANIFESTS-AND-DRIVERS.md promises (`SpawnFloor`, plain C), without and with
    /// installtop's history recording each update; and the job with a subscriber that does
    /// nothing, which separates what delivering events costs from what the history's writes
    /// cost.
    static func queueSpawnOverhead() async {
        let runs = 500
        let rounds = 5
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-bench-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store: HistoryStore
        do {
            store = try HistoryStore(path: folder + "/history.sqlite3")
        } catch {
            print("  failed: \(error)")
            return
        }
        let trues = (0..<runs).map { Update(id: "u\($0)", installCommand: .argv(["/bin/true"])) }
        _ = await runJob(updates: Array(trues.prefix(20)), listener: .none)

        var shell: [Duration] = [], bare: [Duration] = [], floor: [Duration] = [], floorOn: [Duration] = []
        var off: [Duration] = [], sub: [Duration] = [], on: [Duration] = []
        var ownCPU: [String: [Double]] = [:]
        for round in 0..<rounds {
            shell.append(await measured("shell", into: &ownCPU) {
                let update = Update(id: "loop", installCommand: .shell("for i in $(seq \(runs)); do /bin/true; done"))
                _ = await runJob(updates: [update], listener: .none)
            })
            bare.append(await measured("bare", into: &ownCPU) { bareSpawnLoop(runs) })
            floor.append(await measured("floor", into: &ownCPU) { SpawnFloor.run(runs) })
            floorOn.append(await measured("floorOn", into: &ownCPU) {
                SpawnFloor.run(runs, recordingTo: HistoryRecorder(store: store), job: 1_000 + round)
            })
            off.append(await measured("off", into: &ownCPU) { _ = await runJob(updates: trues, listener: .none) })
            sub.append(await measured("sub", into: &ownCPU) { _ = await runJob(updates: trues, listener: .emptySubscriber) })
            on.append(await measured("on", into: &ownCPU) { _ = await runJob(updates: trues, listener: .history(HistoryRecorder(store: store))) })
        }
        func line(_ what: String, _ key: String, _ times: [Duration], goal: String = "") -> String {
            let ratios = zip(times, shell).map { $0 / $1 }.sorted()
            let each = median(times) / runs
            let cpu = (ownCPU[key] ?? [0]).sorted()[(ownCPU[key] ?? [0]).count / 2] / Double(runs) * 1e6
            return "  \(what): \(microseconds(each)) each, ratio \(format(ratios[ratios.count / 2]))× "
                + "(rounds \(format(ratios.first!))–\(format(ratios.last!))), "
                + "installtop's own CPU \(String(format: "%.0f", cpu)) µs\(goal)"
        }
        print("  \(runs) × /bin/true, median of \(rounds) rounds run in turn:")
        print("  in a shell loop (one update): \(microseconds(median(shell) / runs)) each")
        print(line("bare posix_spawn + waitpid  ", "bare", bare))
        print(line("least for the contract, C   ", "floor", floor))
        print(line("  the same, history on      ", "floorOn", floorOn))
        print(line("one job, history off        ", "off", off))
        print(line("  the same, a subscriber    ", "sub", sub))
        print(line("one job, history on         ", "on", on, goal: "   (goal ≤ 1.25×)"))
        // Paired by round: the two ran seconds apart, so the machine's drift cancels.
        let againstFloor = zip(on, floorOn).map { $0 / $1 }.sorted()
        print("  one job with history against the C floor with history: \(format(againstFloor[againstFloor.count / 2]))× "
            + "(rounds \(format(againstFloor.first!))–\(format(againstFloor.last!))), goal ≤ 1.15×")
    }

    /// The wall time of `body`; this process's CPU time during it is added to `cpu[key]`.
    private static func measured(_ key: String, into cpu: inout [String: [Double]], _ body: () async -> Void) async -> Duration {
        let before = cpuSeconds()
        let wall = await ContinuousClock().measure { await body() }
        cpu[key, default: []].append(cpuSeconds() - before)
        return wall
    }

    /// `runs` × /bin/true spawned and waited for one after another, with nothing else.
    private static func bareSpawnLoop(_ runs: Int) {
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
        defer { free(argv[0]) }
        for _ in 0..<runs {
            var pid: pid_t = 0
            guard posix_spawn(&pid, "/bin/true", nil, nil, argv, environ) == 0 else { continue }
            var status: Int32 = 0
            _ = waitpid(pid, &status, 0)
        }
    }

    /// 1,000 jobs of one `sleep 1` update each, all running at once (`--concurrency 1000`).
    /// Prints the wall time and the most threads the process had meanwhile (sampled from
    /// /proc/self/status every 5 ms), with their names at that moment. Goals: ≤ 2 s wall,
    /// ≤ 8 threads.
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
        let (peak, names) = sampler.stop()
        let failed = queue.snapshot().jobs.filter { $0.result?.resultCode != .succeeded }.count
        print("  \(jobs) concurrent `sleep 1` updates: wall \(milliseconds(wall)) (goal ≤ 2 s), \(failed) not succeeded")
        print("  threads: \(threadsBefore) before, peak \(peak) including the sampler (goal ≤ 8)")
        let counted = Dictionary(names.map { ($0, 1) }, uniquingKeysWith: +).sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        print("  at the peak: " + counted.map { $0.value == 1 ? $0.key : "\($0.value) × \($0.key)" }.joined(separator: ", "))
    }

    /// One job whose update writes 50 MB of output (500,000 lines of 100 bytes) as fast as a
    /// pipe takes it, to a subscriber that spends 5 µs on each event (a slow consumer: a JSON
    /// writer on a loaded machine, a debug build). Prints the wall time, the events the
    /// subscriber got, and the peak resident memory: what waits between the child and a consumer
    /// that is behind. Goal: bounded (rule 8a holds the child in its write), not growing with
    /// the output.
    static func outputFloodJob() async {
        let lines = 500_000
        let line = String(repeating: "0123456789", count: 10).dropLast()
        let update = Update(id: "flood", installCommand: .shell("yes '\(line)' | head -n \(lines)"))
        let queue = JobQueue(backend: ProcessBackend(), configuration: configuration)
        let received = Atomic<Int>(0)
        queue.subscribe { event in
            guard case .output = event.kind else { return }
            received.add(1, ordering: .relaxed)
            let until = ContinuousClock.now + .microseconds(5)
            while ContinuousClock.now < until {}
        }
        let residentBefore = ResidentMemory(pid: getpid())?.totalKiB ?? 0
        let before = cpuSeconds()
        let wall = await ContinuousClock().measure {
            _ = try? queue.submit(name: "flood", updates: [update])
            await queue.waitUntilIdle()
        }
        // The process's high-water mark: run this benchmark alone (`installtop-bench output-flood-job`).
        let peak = ProcessBenchmarks.usage().maxResidentKiB
        print("  \(lines) lines of 100 bytes to a subscriber taking 5 µs an event: wall \(milliseconds(wall)), "
            + "CPU \(format(cpuSeconds() - before)) s, \(received.load(ordering: .relaxed)) output events received")
        print("  resident memory: \(residentBefore / 1024) MiB before, peak \(peak / 1024) MiB (the process's high-water mark) (goal: bounded, not growing with the output)")
    }

    // MARK: - Running

    private static let configuration = EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-bench")

    /// Who subscribes to the queue's events while a job runs.
    private enum Listener {
        case none
        /// A subscriber that does nothing: the cost of delivering the events.
        case emptySubscriber
        case history(HistoryRecorder)
    }

    /// Runs one job on a fresh queue; returns how many updates did not succeed.
    private static func runJob(updates: [Update], listener: Listener) async -> Int {
        let queue = JobQueue(backend: ProcessBackend(), configuration: configuration)
        switch listener {
        case .none: break
        case .emptySubscriber: queue.subscribe { _ in }
        case .history(let recorder): queue.subscribe { event in try? recorder.record(event) }
        }
        _ = try? queue.submit(name: "bench", updates: updates)
        await queue.waitUntilIdle()
        return queue.snapshot().jobs.flatMap(\.updates).filter { $0.result.resultCode != .succeeded }.count
    }

    /// Samples the thread count on a thread of its own until stopped, and the threads' names
    /// whenever the count reaches a new peak.
    private final class ThreadCountSampler: Sendable {
        private let sampling = Atomic<Bool>(true)
        private let peak = Mutex<(count: Int, names: [String])>((0, []))
        private let done = Atomic<Bool>(false)

        init() {
            Thread { [self] in
                // Named, so the peak's names tell it apart (a new thread takes its maker's name).
                try? "bench-sampler".write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
                while sampling.load(ordering: .relaxed) {
                    let count = threadCount()
                    if count > peak.withLock({ $0.count }) {
                        let names = threadNames()
                        peak.withLock { $0 = (count, names) }
                    }
                    usleep(5_000)
                }
                done.store(true, ordering: .releasing)
            }.start()
        }

        /// Stops sampling and returns the most threads seen, with their names then.
        func stop() -> (count: Int, names: [String]) {
            sampling.store(false, ordering: .relaxed)
            while !done.load(ordering: .acquiring) { usleep(1_000) }
            return peak.withLock { $0 }
        }
    }

    /// The names of this process's threads (`/proc/self/task/*/comm`: at most 15 characters;
    /// Dispatch keeps the end of its names, so `oot.default-qos` is one of Swift's concurrency
    /// pool, `-qos.overcommit` an overcommitting Dispatch queue's).
    private static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
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
