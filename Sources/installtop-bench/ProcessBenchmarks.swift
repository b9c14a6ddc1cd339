import Glibc
import InstallEngine
import Synchronization

/// Benchmarks of `ProcessBackend` with real children. Each prints its figures and the goal.
enum ProcessBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "spawn-overhead", run: spawnOverhead),
        Benchmark(name: "progress-flood", run: progressFlood),
        Benchmark(name: "output-flood", run: outputFlood),
    ]

    // MARK: - Benchmarks

    /// 500 runs of /bin/true one after another through the backend, against the same 500 runs
    /// in a shell loop (one update). Goal: at most 1.5 times the shell loop.
    static func spawnOverhead() async {
        let backend = ProcessBackend()
        let reporter = CountingReporter()
        let runs = 500
        for _ in 0..<20 { _ = await backend.start(request(.argv(["/bin/true"])), reporter: reporter).outcome }

        let clock = ContinuousClock()
        let ours = await clock.measure {
            for _ in 0..<runs { _ = await backend.start(request(.argv(["/bin/true"])), reporter: reporter).outcome }
        }
        let shell = await clock.measure {
            _ = await backend.start(request(.shell("for i in $(seq \(runs)); do /bin/true; done")), reporter: reporter).outcome
        }
        print("  \(runs) × /bin/true via ProcessBackend: \(milliseconds(ours)) (\(microseconds(ours / runs)) each)")
        print("  \(runs) × /bin/true in a shell loop:    \(milliseconds(shell)) (\(microseconds(shell / runs)) each)")
        print("  ratio: \(format(ours / shell, digits: 2))×   (goal ≤ 1.5×)")
    }

    /// One child writes 1,000,000 `progress` lines to fd 3 as fast as it can. Measures
    /// installtop's own CPU (the child's is not ours) and its peak memory. Goal: ≤ 0.3 s of CPU,
    /// flat memory.
    static func progressFlood() async {
        let lines = 1_000_000
        let generator = "awk 'BEGIN { for (i = 1; i <= \(lines); i++) printf \"progress %.4f\\n\", i * 100 / \(lines) }' >&3"
        await measureFlood(request(.shell(generator)), describing: "\(lines) progress lines on fd 3", goal: "goal ≤ 0.3 s CPU, flat memory")
    }

    /// One child writes 50 MB to stdout in 500,000 lines of 100 bytes, then a 5 MB line
    /// without a newline.
    static func outputFlood() async {
        let line = String(repeating: "0123456789", count: 10).dropLast()
        let generator = "yes '\(line)' | head -n 500000; head -c 5000000 /dev/zero | tr '\\0' y"
        await measureFlood(request(.shell(generator)), describing: "50 MB of stdout in 500,000 lines + one 5 MB line", goal: "flat memory")
    }

    // MARK: - Measuring

    private static func measureFlood(_ request: UpdateRunRequest, describing what: String, goal: String) async {
        let backend = ProcessBackend()
        let reporter = CountingReporter()
        let before = usage()
        let clock = ContinuousClock()
        var outcome: UpdateRunOutcome?
        let wall = await clock.measure { outcome = await backend.start(request, reporter: reporter).outcome }
        let after = usage()
        let counts = reporter.counts
        print("  \(what): outcome \(outcome.map { "\($0)" } ?? "none"), wall \(milliseconds(wall))")
        print("  reports: \(counts.progress) progress (last \(counts.lastPercent.map { format($0, digits: 4) } ?? "none")), \(counts.lines) output lines (longest \(counts.longestLine) bytes), \(counts.other) other")
        print("  installtop CPU (user+sys): \(format(after.cpuSeconds - before.cpuSeconds, digits: 3)) s")
        print("  max RSS: \(before.maxResidentKiB / 1024) MiB before, \(after.maxResidentKiB / 1024) MiB after   (\(goal))")
    }

    struct Usage {
        var cpuSeconds: Double
        var maxResidentKiB: Int
    }

    /// This process's CPU time and resident high-water mark (`getrusage`).
    static func usage() -> Usage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return Usage(cpuSeconds: user + system, maxResidentKiB: usage.ru_maxrss)
    }

    private static func request(_ command: UpdateCommand) -> UpdateRunRequest {
        UpdateRunRequest(update: Update(id: "bench", installCommand: command), operation: .install,
                         command: command, jobName: "bench")
    }

    // MARK: - Formatting

    private static func milliseconds(_ duration: Duration) -> String {
        "\(format(duration / .milliseconds(1), digits: 1)) ms"
    }

    private static func microseconds(_ duration: Duration) -> String {
        "\(format(duration / .microseconds(1), digits: 0)) µs"
    }

    private static func format(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return digits == 0 ? "\(Int(rounded))" : "\(rounded)"
    }

    // MARK: - Reporter

    /// Counts what it is told and keeps nothing else.
    final class CountingReporter: UpdateReporter {
        struct Counts {
            var progress = 0
            var lastPercent: Double?
            var lines = 0
            var longestLine = 0
            var other = 0
        }

        private let state = Mutex(Counts())

        func report(_ report: UpdateReport) {
            state.withLock { counts in
                switch report {
                case .progress(let percent, _):
                    counts.progress += 1
                    counts.lastPercent = percent
                case .output(_, let line):
                    counts.lines += 1
                    counts.longestLine = max(counts.longestLine, line.utf8.count)
                default:
                    counts.other += 1
                }
            }
        }

        var counts: Counts { state.withLock { $0 } }
    }
}
