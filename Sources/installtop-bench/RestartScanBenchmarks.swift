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
    /// listed; then (as root) with 1,000 `sleep`s chrooted into a small root of copies whose
    /// libz is replaced there, so every one is listed apart, in another root, its files looked
    /// up through its own root. Prints the median wall and CPU time of 5 scans; goal ≤ 0.2 s
    /// wall for 1,000 processes. The sleepers are killed by pid and reaped at the end.
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

        for pid in pids { kill(pid, SIGKILL) }
        for pid in pids { while waitpid(pid, nil, 0) == -1, errno == EINTR {} }
        pids.removeAll()
        guard getuid() == 0, access("/usr/sbin/chroot", X_OK) == 0 else {
            print("  in a chroot: skipped (needs root and chroot)")
            return
        }
        let jail = folder + "/jail"
        let inside = "/libz-copy.so.1"
        guard makeRoot(jail, library: original, at: inside) else {
            print("  in a chroot: skipped (could not copy sleep and its libraries)")
            return
        }
        for _ in 0..<count {
            guard let pid = spawnSleeper(preloading: inside, chroot: jail) else { break }
            pids.append(pid)
        }
        let chrootDeadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < chrootDeadline, !pids.allSatisfy({ maps(pid: $0, path: jail + inside) }) {
            try? await Task.sleep(for: .milliseconds(20))
        }
        try? FileManager.default.copyItem(atPath: jail + inside, toPath: jail + inside + ".dpkg-new")
        rename(jail + inside + ".dpkg-new", jail + inside)

        let apart = measure(scanner)
        print("  with \(pids.count) sleepers in a chroot (\(apart.processes) processes, \(apart.apart) listed apart in another root): \(apart.text)")
    }

    /// A root at `path` with `/usr/bin/sleep`, the libraries `ldd` names for it and a copy of
    /// `library` at `inside`; false when something could not be copied.
    private static func makeRoot(_ path: String, library: String, at inside: String) -> Bool {
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        process.arguments = ["/usr/bin/sleep"]
        process.standardOutput = output
        guard (try? process.run()) != nil else { return false }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let libraries = text.split(separator: "\n").compactMap { line -> String? in
            let words = line.split { $0 == " " || $0 == "\t" }
            if let arrow = words.firstIndex(of: "=>"), arrow + 1 < words.count, words[arrow + 1].hasPrefix("/") { return String(words[arrow + 1]) }
            return words.first.flatMap { $0.hasPrefix("/") ? String($0) : nil }
        }
        for (source, target) in [("/usr/bin/sleep", "/usr/bin/sleep"), (library, inside)] + libraries.map({ ($0, $0) }) {
            let destination = path + target
            try? FileManager.default.createDirectory(atPath: (destination as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            let resolved = URL(fileURLWithPath: source).resolvingSymlinksInPath().path
            guard (try? FileManager.default.copyItem(atPath: resolved, toPath: destination)) != nil else { return false }
        }
        return true
    }

    private struct Figures {
        var processes: Int
        var stale: Int
        var apart: Int
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
            processes: processes, stale: advice.processes.count, apart: advice.otherRoots.count,
            text: String(format: "median wall %.1f ms, CPU %.1f ms", median(walls) * 1000, median(cpus) * 1000))
    }

    private static func maps(pid: pid_t, path: String) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? "").contains(path)
    }

    /// `/bin/sleep 600` with LD_PRELOAD and its output on /dev/null, or `chroot ROOT
    /// /usr/bin/sleep 600` (chroot execs it, so the pid stays) with `library` a path inside
    /// that root; `nil` when spawning fails.
    private static func spawnSleeper(preloading library: String, chroot root: String? = nil) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_RDWR, 0) }
        let arguments = root.map { ["/usr/sbin/chroot", $0, "/usr/bin/sleep", "600"] } ?? ["/bin/sleep", "600"]
        let environment = ["LD_PRELOAD=" + library, "PATH=/usr/bin:/bin"]
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp) == 0 else { return nil }
        return pid
    }
}
