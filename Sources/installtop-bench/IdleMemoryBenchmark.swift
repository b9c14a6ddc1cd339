import Foundation
import Glibc

/// The resident memory of the release `installtop run` monitor on a 200×60 pseudo-terminal
/// once 20 updates (4 jobs of 5 × `/bin/true`, history on) have finished and it has been idle
/// 10 s; with htop's beside it, idle 10 s on the same terminal, when htop is on the `PATH`.
/// Build first: `swift build -c release` (add `--static-swift-stdlib` to measure the binary
/// the README installs). Each program's executable is dropped from the page cache before it
/// starts: the kernel maps the cached pages around every page a process touches, so a binary
/// just linked, or read whole, shows megabytes more resident code than one read by its own
/// faults, and rounds would depend on what ran before.
enum IdleMemoryBenchmark {
    static let all: [Benchmark] = [Benchmark(name: "monitor-idle-memory", run: run)]

    static func run() async {
        let installtop = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("installtop").path
        guard FileManager.default.isExecutableFile(atPath: installtop) else {
            print("  needs \(installtop): run `swift build -c release` first")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-bench-memory-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var manifest = "jobs:\n"
        for job in 1...4 {
            manifest += "  - name: Job \(job)\n    updates:\n"
            for update in 1...5 { manifest += "      - {id: u\(job)-\(update), title: Update \(update) of job \(job), install: [/bin/true]}\n" }
        }
        guard FileManager.default.createFile(atPath: folder + "/manifest.yaml", contents: Data(manifest.utf8)) else {
            print("  cannot write the manifest in \(folder)")
            return
        }
        let environment = ["TERM=xterm-256color", "LANG=C.UTF-8", "PATH=/usr/bin:/bin", "HOME=\(folder)"]

        print("  load average at the start: \(loadAverage())")
        var totals: [Int] = []
        for round in 1...3 {
            // A fresh history each round, so every round records the same 20 updates.
            try? FileManager.default.removeItem(atPath: folder + "/.local")
            dropFromPageCache(installtop)
            guard let child = TerminalChild([installtop, "run", folder + "/manifest.yaml"], environment: environment) else {
                print("  cannot start \(installtop) on a pseudo-terminal")
                return
            }
            // curses rewrites only the characters that change, so no one string marks the end:
            // the jobs are shown, then no update has run for 2 s.
            guard child.waitForOutput("Job 4", timeout: .seconds(60)), waitUntilChildless(child, quiet: .seconds(2), timeout: .seconds(120)) else {
                child.quit(typing: "q")
                print("  round \(round): the monitor did not show the 20 updates finished")
                return
            }
            _ = child.drain(for: .seconds(10))
            let memory = ResidentMemory(pid: child.pid)
            child.quit(typing: "q")
            guard let memory else {
                print("  round \(round): cannot read /proc/\(child.pid)")
                return
            }
            totals.append(memory.totalKiB)
            print("  round \(round): \(memory.summary)")
            print("    largest mappings, Rss: \(memory.largestMappings(6))")
        }
        totals.sort()
        print("  installtop run, idle 10 s after 20 finished updates: VmRSS \(ResidentMemory.mebibytes(totals[0]))–\(ResidentMemory.mebibytes(totals[totals.count - 1])) MiB (goal ≤ 15 MB)")
        printHtop(environment: environment)
        print("  load average at the end: \(loadAverage())")
    }

    /// `true` once `child` has had no child process for `quiet`.
    private static func waitUntilChildless(_ child: TerminalChild, quiet: Duration, timeout: Duration) -> Bool {
        let deadline = ContinuousClock.now + timeout
        var quietSince = ContinuousClock.now
        while ContinuousClock.now < deadline {
            guard child.drain(for: .milliseconds(100)) else { return false }
            let children = (try? String(contentsOfFile: "/proc/\(child.pid)/task/\(child.pid)/children", encoding: .utf8)) ?? ""
            if !children.isEmpty { quietSince = ContinuousClock.now }
            if ContinuousClock.now - quietSince >= quiet { return true }
        }
        return false
    }

    /// htop's resident memory on the same terminal after 10 s, for comparison.
    private static func printHtop(environment: [String]) {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/htop" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else {
            print("  htop: not installed")
            return
        }
        // htop's own environment too (it may be a wrapper that sets LD_LIBRARY_PATH).
        let inherited = ProcessInfo.processInfo.environment.filter { $0.key == "LD_LIBRARY_PATH" }.map { "\($0.key)=\($0.value)" }
        dropFromPageCache(path)
        guard let child = TerminalChild([path], environment: environment + inherited) else {
            print("  htop: cannot start \(path)")
            return
        }
        _ = child.drain(for: .seconds(10))
        let memory = ResidentMemory(pid: child.pid)
        child.quit(typing: "q")
        print("  htop (\(path)), idle 10 s: VmRSS \(memory.map { ResidentMemory.mebibytes($0.totalKiB) } ?? "unreadable") MiB")
    }

    /// Writes back and drops the cached pages of the file at `path` (only those no process maps).
    private static func dropFromPageCache(_ path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = fdatasync(descriptor)
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED)
    }
}
