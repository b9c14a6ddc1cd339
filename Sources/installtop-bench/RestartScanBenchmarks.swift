import Foundation
import Glibc
import RestartScan

/// The restart scan (rule 32) over this host's processes, then over a thousand more it starts.
enum RestartScanBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "restart-scan", run: restartScan),
    ]

    /// Scans /proc as it is, then with 1,000 `sleep`s this benchmark starts, each mapping a copy
    /// of libz (LD_PRELOAD) that is then replaced the way dpkg does, so every one of them is
    /// listed. Prints the median wall and CPU time of 5 scans; goal ≤ 0.2 s wall for 1,000
    /// processes. The sleepers are killed by pid and reaped at the end.
    static func restartScan() async {
        let scanner = RestartScanner()
        let host = measure(scanner)
        print("  this host (\(host.processes) processes): \(host.text)")

        let folder = FileManager.default.temporaryDirectory.path + "/installtop-bench-restarts-\(getpid())"
        let library = folder + "/libz-copy.so.1"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = URL(fileURLWithPath: "/lib/x86_64-linux-gnu/libz.so.1").resolvingSymlinksInPath().path
        guard (try? FileManager.default.copyItem(atPath: original, toPath: library)) != nil else {
            print("  no /lib/x86_64-linux-gnu/libz.so.1 to preload: skipped")
            return
        }
        let count = 1000
        var pids: [pid_t] = []
        defer {
            for pid in pids { kill(pid, SIGKILL) }
            for pid in pids { while waitpid(pid, nil, 0) == -1, errno == EINTR {} }
        }
        for _ in 0..<count {
            guard let pid = spawnSleeper(preloading: library) else { break }
            pids.append(pid)
        }
        // Every sleeper has mapped the copy once its loader ran.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline, !pids.allSatisfy({ maps(pid: $0, path: library) }) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        try? FileManager.default.copyItem(atPath: library, toPath: library + ".dpkg-new")
        rename(library + ".dpkg-new", library)

        let loaded = measure(scanner)
        print("  with \(pids.count) more sleepers (\(loaded.processes) processes, \(loaded.stale) listed): \(loaded.text)   (goal ≤ 0.2 s wall for 1,000)")
    }

    private struct Figures {
        var processes: Int
        var stale: Int
        var text: String
    }

    /// Five scans; the median wall and CPU time.
    private static func measure(_ scanner: RestartScanner) -> Figures {
        var walls: [Double] = []
        var cpus: [Double] = []
        var advice = RestartAdvice()
        for _ in 0..<5 {
            let cpu = cpuSeconds()
            let start = ContinuousClock.now
            advice = scanner.scan()
            walls.append((ContinuousClock.now - start) / .seconds(1))
            cpus.append(cpuSeconds() - cpu)
        }
        let processes = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).filter { Int($0) != nil }.count
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        return Figures(
            processes: processes, stale: advice.processes.count,
            text: String(format: "median wall %.1f ms, CPU %.1f ms", median(walls) * 1000, median(cpus) * 1000))
    }

    private static func maps(pid: pid_t, path: String) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? "").contains(path)
    }

    /// `/bin/sleep 600` with LD_PRELOAD and its output on /dev/null; `nil` when spawning fails.
    private static func spawnSleeper(preloading library: String) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0) }
        let arguments = ["/bin/sleep", "600"]
        let environment = ["LD_PRELOAD=" + library, "PATH=/usr/bin:/bin"]
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/bin/sleep", &actions, nil, &argv, &envp) == 0 else { return nil }
        return pid
    }
}
