import Foundation
import Glibc

/// Real Debian packages, real maintainer scripts, in a debootstrap chroot (issue 18): apt-get
/// by hand against `installtop apt install --chroot DIR` (the release binary), paired and in turn.
/// Usage: `installtop-bench apt-real --chroot DIR [--rounds N] [--installtop PATH]`. The chroot
/// must have `usr/sbin/policy-rc.d` exiting 101 (no service starts); `/proc` is mounted in it
/// for the run when it is not already, and unmounted after. Nothing runs outside the chroot.
enum APTRealBenchmark {
    static let all = [Benchmark(name: "apt-real", run: run)]

    /// The issue's set; their dependencies come with them.
    static let packages = ["cowsay", "fortune-mod", "nginx-light", "redis-server", "memcached"]

    /// One way of installing the set, run once per round.
    private struct Contender {
        var name: String
        var arguments: [String]
        /// Reads apt's Status-Fd (fd 3) to time the gaps between `Installed` lines.
        var timesStatus = false
    }

    /// One timed run: its wall time and, for a run read on fd 3, the longest time between two
    /// safe points (`Installed` lines, and the first pmstatus line), which is what a graceful
    /// stop waits for at worst.
    private struct Timing {
        var wall: Double
        var longestGap: Double?
        var gapPackage: String?
    }

    static func run() async {
        let arguments = CommandLine.arguments
        func value(_ option: String) -> String? {
            arguments.firstIndex(of: option).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        }
        guard let chroot = value("--chroot").map({ URL(fileURLWithPath: $0).standardizedFileURL.path }) else {
            print("  skipped: needs --chroot DIR (a debootstrap chroot with usr/sbin/policy-rc.d exiting 101)")
            return
        }
        let rounds = value("--rounds").flatMap(Int.init) ?? 5
        let installtop = value("--installtop")
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("installtop").path
        guard getuid() == 0 else { return print("  skipped: chroot needs root") }
        guard FileManager.default.isExecutableFile(atPath: chroot + "/usr/sbin/policy-rc.d") else {
            return print("  skipped: \(chroot)/usr/sbin/policy-rc.d is missing: services would start in the chroot")
        }
        guard FileManager.default.isExecutableFile(atPath: installtop) else {
            return print("  skipped: no installtop at \(installtop) (swift build -c release first, or --installtop PATH)")
        }
        let mountedHere = !FileManager.default.fileExists(atPath: chroot + "/proc/self")
        if mountedHere {
            guard spawn(["/usr/bin/mount", "-t", "proc", "proc", chroot + "/proc"]).status == 0 else {
                return print("  skipped: cannot mount /proc in \(chroot)")
            }
        }
        defer { if mountedHere { _ = spawn(["/usr/bin/umount", chroot + "/proc"]) } }
        measure(chroot: chroot, installtop: installtop, rounds: rounds)
    }

    private static func measure(chroot: String, installtop: String, rounds: Int) {
        func inside(_ command: [String]) -> [String] { ["/usr/sbin/chroot", chroot] + command }
        let base = installedPackages(in: chroot)
        print("  chroot \(chroot): \(base.count) packages to start from; \(rounds) rounds; load \(loadAverage())")
        guard spawn(inside(["/usr/bin/apt-get", "install", "-y", "--download-only"] + packages)).status == 0 else {
            return print("  the download failed (apt-get --download-only in the chroot)")
        }
        let yes = ["/usr/bin/apt-get", "install", "-y"]
        let contenders = [
            Contender(name: "apt-get install -y", arguments: inside(yes + packages)),
            Contender(name: "apt-get -y, Immediate-Configure-All", arguments: inside(yes + ["-o", "APT::Immediate-Configure-All=1", "-o", "APT::Status-Fd=3"] + packages),
                      timesStatus: true),
            Contender(name: "installtop apt install --chroot --yes --json",
                      arguments: [installtop, "apt", "install", "--chroot", chroot, "--yes", "--json"] + packages),
        ]
        let plans = [
            Contender(name: "apt-get -s install", arguments: inside(["/usr/bin/apt-get", "-s", "install"] + packages)),
            Contender(name: "installtop apt install --chroot (plan, off a terminal)",
                      arguments: [installtop, "apt", "install", "--chroot", chroot] + packages),
        ]
        var installs = Array(repeating: [Timing](), count: contenders.count)
        var planTimes = Array(repeating: [Timing](), count: plans.count)
        var count = 0
        // Round 0 warms the page cache and apt's binary cache; it is not counted.
        for round in 0...rounds {
            for (index, contender) in contenders.enumerated() {
                let timing = time(contender)
                let now = installedPackages(in: chroot)
                guard timing != nil, now.isSuperset(of: base), now.count > base.count else {
                    return print("  \(contender.name) failed (\(now.count - base.count) packages installed)")
                }
                count = now.count - base.count
                guard purge(now.subtracting(base), in: chroot, back: base) else { return }
                if round > 0, let timing { installs[index].append(timing) }
            }
            for (index, plan) in plans.enumerated() {
                guard let timing = time(plan, expecting: index == 0 ? 0 : 1) else { return print("  \(plan.name) failed") }
                if round > 0 { planTimes[index].append(timing) }
            }
        }
        print("  \(count) packages installed per run (\(packages.joined(separator: ", ")) and their dependencies), purged between runs")
        report(contenders.map(\.name), installs)
        let gaps = installs[1].compactMap(\.longestGap)
        if !gaps.isEmpty {
            let worst = installs[1].max { ($0.longestGap ?? 0) < ($1.longestGap ?? 0) }
            print(String(format: "  a graceful stop (SIGINT, Immediate-Configure-All) waits at most for the longest package: median %.2f s, worst %.2f s (%@)",
                         median(gaps), gaps.max() ?? 0, worst?.gapPackage ?? "?"))
        }
        report(plans.map(\.name), planTimes)
        print("  load after: \(loadAverage())")
    }

    /// Medians, ranges, and each contender's median ratio to the first, paired by round.
    private static func report(_ names: [String], _ timings: [[Timing]]) {
        for (index, name) in names.enumerated() {
            let walls = timings[index].map(\.wall)
            var line = "  " + name.padding(toLength: 56, withPad: " ", startingAt: 0)
                + String(format: " median %6.2f s  range %.2f–%.2f s", median(walls), walls.min() ?? 0, walls.max() ?? 0)
            if index > 0 {
                let ratios = zip(walls, timings[0].map(\.wall)).map { $0 / $1 }
                line += String(format: "  ratio to the first %.2f× (%.2f–%.2f)", median(ratios), ratios.min() ?? 0, ratios.max() ?? 0)
            }
            print(line)
        }
    }

    /// Runs `contender` (stdin, stdout, stderr on /dev/null); nil when its exit status is not
    /// `expecting` (installtop's plan off a terminal exits 1: not run without --yes).
    private static func time(_ contender: Contender, expecting: Int32 = 0) -> Timing? {
        let result = spawn(contender.arguments, readStatus: contender.timesStatus)
        guard result.status == expecting else { return nil }
        var timing = Timing(wall: result.wall)
        // Before the first pmstatus line nothing has changed and a stop is immediate.
        var previous: Double?
        for (at, line) in result.statusLines {
            let fields = line.split(separator: ":", maxSplits: 3)
            guard fields.count == 4, fields[0] == "pmstatus" else { continue }
            guard let since = previous else {
                previous = at
                continue
            }
            guard fields[3].hasPrefix("Installed ") else { continue }
            if at - since > timing.longestGap ?? 0 {
                timing.longestGap = at - since
                timing.gapPackage = String(fields[1])
            }
            previous = at
        }
        return timing
    }

    /// `apt-get purge -y --autoremove` of what a run added; false (after saying why) when the
    /// chroot is not back to `base`.
    private static func purge(_ added: Set<String>, in chroot: String, back base: Set<String>) -> Bool {
        _ = spawn(["/usr/sbin/chroot", chroot, "/usr/bin/apt-get", "purge", "-y", "--autoremove"] + added.sorted())
        let after = installedPackages(in: chroot)
        guard after == base else {
            print("  the purge left the chroot changed: +\(after.subtracting(base).sorted()) -\(base.subtracting(after).sorted())")
            return false
        }
        return true
    }

    /// Packages dpkg has installed (status `install ok installed`) in the chroot.
    private static func installedPackages(in chroot: String) -> Set<String> {
        let query = spawn(["/usr/bin/dpkg-query", "--admindir=\(chroot)/var/lib/dpkg", "-W", "-f=${Package} ${Status}\\n"], captureOutput: true)
        return Set(query.output.split(separator: "\n").compactMap { line in
            line.hasSuffix(" install ok installed") ? String(line.split(separator: " ")[0]) : nil
        })
    }

    private static func loadAverage() -> String {
        ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
    }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// posix_spawn with stdin on /dev/null, stdout and stderr on /dev/null or a pipe, and fd 3 on
    /// a pipe whose lines are kept with the seconds since the start when `readStatus` (else on
    /// /dev/null). Waits for the end.
    private static func spawn(_ arguments: [String], readStatus: Bool = false, captureOutput: Bool = false)
        -> (status: Int32, wall: Double, output: String, statusLines: [(Double, String)]) {
        var outputPipe: [Int32] = [-1, -1]
        var statusPipe: [Int32] = [-1, -1]
        if captureOutput { pipe(&outputPipe) }
        if readStatus { pipe(&statusPipe) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if captureOutput {
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        if readStatus {
            posix_spawn_file_actions_adddup2(&actions, statusPipe[1], 3)
        } else {
            posix_spawn_file_actions_addopen(&actions, 3, "/dev/null", O_WRONLY, 0)
        }
        for descriptor in outputPipe + statusPipe where descriptor >= 0 { posix_spawn_file_actions_addclose(&actions, descriptor) }
        var environment = ProcessInfo.processInfo.environment
        environment["DEBIAN_FRONTEND"] = "noninteractive"
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let clock = ContinuousClock()
        let started = clock.now
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp) == 0
        for descriptor in [outputPipe[1], statusPipe[1]] where descriptor >= 0 { close(descriptor) }
        var output = Data()
        var statusLines: [(Double, String)] = []
        if spawned, captureOutput { output = FileHandle(fileDescriptor: outputPipe[0], closeOnDealloc: false).readDataToEndOfFile() }
        if spawned, readStatus {
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(statusPipe[0], &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { break }
                let at = (clock.now - started) / .seconds(1)
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: 10) {
                    statusLines.append((at, String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)))
                    pending = Data(pending[(newline + 1)...])
                }
            }
        }
        for descriptor in [outputPipe[0], statusPipe[0]] where descriptor >= 0 { close(descriptor) }
        guard spawned else { return (-1, 0, "", []) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        let wall = (clock.now - started) / .seconds(1)
        return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), wall, String(decoding: output, as: UTF8.self), statusLines)
    }
}
