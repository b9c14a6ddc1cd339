import Foundation
import Glibc
import InstallDrivers

/// Real Debian packages, real maintainer scripts, in a debootstrap chroot (issue 18): apt-get
/// by hand against `installtop apt install --chroot DIR` (the release binary), paired and in turn.
/// Usage: `installtop-bench apt-real --chroot DIR [--rounds N] [--installtop PATH] [--baseline PATH]
/// [--also-on-base PKG,PKG…]` (`--baseline`: another installtop, run in the same rounds, paired
/// with this one; `--also-on-base`: the whole measurement again with those packages installed
/// into the chroot first, removed after, so that fewer packages come with the set). The chroot
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
    /// stop waits for at worst; the dpkg runs apt made (`pmstatus:dpkg-exec` lines), the
    /// longest of them, the time from the first pmstatus line to the end, and the most packages
    /// left unpacked and not configured when a dpkg run ended.
    private struct Timing {
        var wall: Double
        var longestGap: Double?
        var gapPackage: String?
        var dpkgRuns = 0
        var longestDpkgRun: Double?
        var dpkgPart: Double?
        var mostUnconfigured = 0
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
        let baseline = value("--baseline")
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
        measure(chroot: chroot, installtop: installtop, baseline: baseline, rounds: rounds)
        // The same five names where much of what they need is installed already (issue 32's
        // trial: 18 packages a run on its chroot against 43 on a minimal one): the ratio moves
        // with what a package's share of the run is, so both sets are printed.
        guard let extra = value("--also-on-base")?.split(separator: ",").map(String.init), !extra.isEmpty else { return }
        let before = installedPackages(in: chroot)
        guard spawn(["/usr/sbin/chroot", chroot, "/usr/bin/apt-get", "install", "-y"] + extra).status == 0 else {
            return print("  --also-on-base: apt-get install -y \(extra.joined(separator: " ")) failed in the chroot")
        }
        print("  the same set again, on a base with \(extra.joined(separator: ", ")) and their dependencies installed first:")
        measure(chroot: chroot, installtop: installtop, baseline: baseline, rounds: rounds)
        _ = purge(installedPackages(in: chroot).subtracting(before), in: chroot, back: before)
    }

    private static func measure(chroot: String, installtop: String, baseline: String?, rounds: Int) {
        func inside(_ command: [String]) -> [String] { ["/usr/sbin/chroot", chroot] + command }
        let base = installedPackages(in: chroot)
        print("  chroot \(chroot): \(base.count) packages to start from; \(rounds) rounds; load \(loadAverage())")
        guard spawn(inside(["/usr/bin/apt-get", "install", "-y", "--download-only"] + packages)).status == 0 else {
            return print("  the download failed (apt-get --download-only in the chroot)")
        }
        let yes = ["/usr/bin/apt-get", "install", "-y", "-o", "APT::Status-Fd=3"]
        // apt 2.6 hands dpkg every archive at once (`--unpack --recursive DIR`) unless told not
        // to; then it splits the unpacks into runs of at most MaxArgBytes of arguments (about 8
        // archives here).
        let batches = ["-o", "dpkg::install::recursive::force=true", "-o", "dpkg::install::recursive=false", "-o", "Dpkg::MaxArgBytes=1024"]
        var contenders = [
            Contender(name: "apt-get install -y", arguments: inside(yes + packages), timesStatus: true),
            Contender(name: "apt-get -y, Immediate-Configure-All", arguments: inside(yes + ["-o", "APT::Immediate-Configure-All=1"] + packages),
                      timesStatus: true),
            Contender(name: "installtop apt install --chroot --yes --json (resolves once)",
                      arguments: [installtop, "apt", "install", "--chroot", chroot, "--yes", "--json"] + packages),
            Contender(name: "apt-get -y, unpacks in MaxArgBytes batches", arguments: inside(yes + batches + packages), timesStatus: true),
        ]
        if let baseline {
            contenders.append(Contender(name: "baseline installtop --yes --json (\(URL(fileURLWithPath: baseline).lastPathComponent))",
                                        arguments: [baseline, "apt", "install", "--chroot", chroot, "--yes", "--json"] + packages))
        }
        // apt-get with installtop's options (its gate between archives), to pair installtop with.
        guard let environment = try? APTEnvironment.resolve(aptConfig: nil, chroot: chroot),
              let gate = DpkgArchiveGate.make(for: environment) else {
            return print("  the gate between archives could not be made in \(chroot)")
        }
        defer { gate.remove() }
        contenders.append(Contender(name: "apt-get -y through installtop's gate (DPkg::Path)", arguments: inside(yes + gate.aptOptions + packages),
                                    timesStatus: true))
        let gateIndex = contenders.count - 1
        // Last, so that the contenders above keep their places in `installs`.
        var mergingIndex: Int?
        if DpkgInstallMerging.applies(installing: packages, in: chroot), (try? DpkgInstallMerging.install(in: chroot)) != nil {
            contenders.append(Contender(name: "apt-get -y, Immediate-Configure-All, one dpkg --install a package",
                                        arguments: inside(yes + ["-o", "APT::Immediate-Configure-All=1"] + DpkgInstallMerging.options + packages)))
            mergingIndex = contenders.count - 1
        } else {
            print("  one dpkg --install a package is not measured: apt's simulation does not configure every package right after its unpack")
        }
        defer { DpkgInstallMerging.remove(from: chroot) }
        var merged: [Int] = []
        var floors: [DpkgFloor] = []
        let plans = [
            Contender(name: "apt-get -s install", arguments: inside(["/usr/bin/apt-get", "-s", "install"] + packages)),
            Contender(name: "installtop apt install --chroot (plan, off a terminal)",
                      arguments: [installtop, "apt", "install", "--chroot", chroot] + packages),
        ]
        var archives: [String]?
        var safePointFloors: [DpkgSafePointFloor] = []
        var installs = Array(repeating: [Timing](), count: contenders.count)
        var planTimes = Array(repeating: [Timing](), count: plans.count)
        var count = 0
        // Round 0 warms the page cache and apt's binary cache; it is not counted.
        for round in 0...rounds {
            for (index, contender) in contenders.enumerated() {
                if index == 0, round > 0 { floors.append(DpkgFloor.measure(in: chroot)) }
                let timing = time(contender)
                let now = installedPackages(in: chroot)
                guard timing != nil, now.isSuperset(of: base), now.count > base.count else {
                    return print("  \(contender.name) failed (\(now.count - base.count) packages installed)")
                }
                count = now.count - base.count
                if index == mergingIndex {
                    let packagesMerged = DpkgInstallMerging.merged(in: chroot)
                    if round > 0 { merged.append(packagesMerged) }
                }
                if index == 0, round > 0 { floors.append(DpkgFloor.measure(in: chroot)) }
                guard purge(now.subtracting(base), in: chroot, back: base) else { return }
                if round > 0, let timing { installs[index].append(timing) }
            }
            // After the warm-up: an upgrade in the set (an Essential package such as perl-base,
            // which no purge puts back) is done by then, and the counted rounds' apt runs no
            // longer do it, so dpkg alone must not either.
            if round == 0 { archives = DpkgSafePointFloor.archives(installing: packages, in: chroot) }
            if let archives {
                var seconds: [Double] = []
                for onePerPackage in [true, false] {
                    let taken = DpkgSafePointFloor.install(archives, onePerPackage: onePerPackage, in: chroot)
                    let now = installedPackages(in: chroot)
                    guard let taken, now.count - base.count == count else {
                        return print("  dpkg alone (\(onePerPackage ? "one run a package" : "batched")) failed (\(now.count - base.count) packages installed)")
                    }
                    guard purge(now.subtracting(base), in: chroot, back: base) else { return }
                    seconds.append(taken)
                }
                if round > 0 { safePointFloors.append(DpkgSafePointFloor(perPackage: seconds[0], batched: seconds[1])) }
            }
            for (index, plan) in plans.enumerated() {
                guard let timing = time(plan, expecting: index == 0 ? 0 : 1) else { return print("  \(plan.name) failed") }
                if round > 0 { planTimes[index].append(timing) }
            }
        }
        print("  \(count) packages installed per run (\(packages.joined(separator: ", ")) and their dependencies), purged between runs")
        report(contenders.map(\.name), installs)
        if baseline != nil {
            let ratios = zip(installs[2].map(\.wall), installs[4].map(\.wall)).map { $0 / $1 }
            print(String(format: "  resolving once against the baseline, paired by round: median %.2f× (%.2f–%.2f)",
                         median(ratios), ratios.min() ?? 0, ratios.max() ?? 0))
        }
        let ownShare = zip(installs[2].map(\.wall), installs[gateIndex].map(\.wall)).map { $0 / $1 }
        print(String(format: "  installtop against apt-get through its gate by hand, paired by round (its own share): median %.2f× (%.2f–%.2f)",
                     median(ownShare), ownShare.min() ?? 0, ownShare.max() ?? 0))
        reportSafePointFloor(safePointFloors, plain: installs[0].map(\.wall))
        if let mergingIndex {
            let ratios = zip(installs[mergingIndex].map(\.wall), installs[1].map(\.wall)).map { $0 / $1 }
            print(String(format: "  one dpkg --install a package (apt's unpack and configure of it merged by a Dir::Bin::dpkg wrapper, %d of %d packages) against Immediate-Configure-All, paired by round: median %.2f× (%.2f–%.2f)",
                         merged.min() ?? 0, count, median(ratios), ratios.min() ?? 0, ratios.max() ?? 0))
        }
        let gaps = installs[1].compactMap(\.longestGap)
        if !gaps.isEmpty {
            let worst = installs[1].max { ($0.longestGap ?? 0) < ($1.longestGap ?? 0) }
            print(String(format: "  a graceful stop (SIGINT, Immediate-Configure-All) waits at most for the longest package: median %.2f s, worst %.2f s (%@)",
                         median(gaps), gaps.max() ?? 0, worst?.gapPackage ?? "?"))
        }
        reportSafePoints(names: [contenders[0].name, contenders[1].name, contenders[3].name], [installs[0], installs[1], installs[3]], floors: floors, chroot: chroot)
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

    /// dpkg alone, both ways, and the least a safe point after every package adds to
    /// `apt-get install -y` (its wall time plus dpkg's extra for one run a package, paired by round).
    private static func reportSafePointFloor(_ floors: [DpkgSafePointFloor], plain: [Double]) {
        guard !floors.isEmpty, floors.count == plain.count else { return }
        let extra = floors.map { $0.perPackage - $0.batched }
        let least = zip(plain, extra).map { ($0 + $1) / $0 }
        print(String(format: "  dpkg alone, in apt's order (no apt): one `dpkg --install` a package %.2f s, every archive in one unpack run and one configure run %.2f s: a safe point after every package costs dpkg %.2f s (%.2f–%.2f); the least any executor with that stop takes is %.2f× of apt-get install -y (%.2f–%.2f, paired by round)",
                     median(floors.map(\.perPackage)), median(floors.map(\.batched)), median(extra), extra.min() ?? 0, extra.max() ?? 0,
                     median(least), least.min() ?? 0, least.max() ?? 0))
    }

    /// What a stop costs or leaves in each way of running dpkg, and what one dpkg run costs:
    /// the floor under the safe points of `Immediate-Configure-All` (issue 18).
    private static func reportSafePoints(names: [String], _ timings: [[Timing]], floors: [DpkgFloor], chroot: String) {
        for (name, runs) in zip(names, timings) where !runs.isEmpty {
            let dpkgRuns = runs.map(\.dpkgRuns).sorted()[runs.count / 2]
            print(String(format: "  %@: %d dpkg runs, the longest %.2f s (median); a stop at a dpkg run's end leaves up to %d packages unpacked and not configured; the dpkg part %.2f s",
                         name, dpkgRuns, median(runs.compactMap(\.longestDpkgRun)), runs.map(\.mostUnconfigured).max() ?? 0,
                         median(runs.compactMap(\.dpkgPart))))
        }
        print("    default options: SIGINT is deferred to apt's end, so a stop waits for the whole dpkg part; MaxArgBytes batches: apt stops before the next unpack run and skips its configure run, leaving those packages unpacked (dpkg --audit lists them)")
        let before = floors.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        let after = floors.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
        guard let small = before.first, let large = after.first else { return }
        let read = (median(before.map(\.databaseRead)), median(after.map(\.databaseRead)))
        let configure = (median(before.map(\.configureRun)), median(after.map(\.configureRun)))
        print(String(format: "  one dpkg run in the chroot: a configure run with nothing to do %.0f ms (%.0f ms with the set installed); the files database an unpack run reads (dpkg -S) %.0f ms for %d files listed, %.0f ms for %d",
                     configure.0 * 1000, configure.1 * 1000, read.0 * 1000, small.files, read.1 * 1000, large.files))
        let growth = DpkgFloor.databaseGrowth(of: chroot)
        if let first = growth.first, let last = growth.last, last.files > first.files {
            let sizes = growth.map { String(format: "%.0f ms for %d files", $0.seconds * 1000, $0.files) }.joined(separator: ", ")
            print(String(format: "    the files database read with a bigger installed base (copies of the chroot's database plus made-up packages): %@; %.2f ms more per 1,000 files",
                         sizes, (last.seconds - first.seconds) * 1000 / Double(last.files - first.files) * 1000))
        }
        let (plain, immediate) = (timings[0], timings[1])
        guard !plain.isEmpty, !immediate.isEmpty else { return }
        let extra = median(immediate.map(\.wall)) - median(plain.map(\.wall))
        let moreRuns = immediate.map(\.dpkgRuns).sorted()[immediate.count / 2] - plain.map(\.dpkgRuns).sorted()[plain.count / 2]
        let unpackRuns = Double(moreRuns) / 2
        // The unpack runs read a database that grows from the start's to the end's as packages land.
        let reads = unpackRuns * (read.0 + read.1) / 2
        let configures = unpackRuns * (configure.0 + configure.1) / 2
        print(String(format: "    Immediate-Configure-All's extra %.2f s over the default (%d more dpkg runs): about %.2f s in the unpack runs' database reads, %.2f s in the configure runs' start, %.2f s the rest (apt's work per run, triggers)",
                     extra, moreRuns, reads, configures, extra - reads - configures))
    }

    /// Runs `contender` (stdin, stdout, stderr on /dev/null); nil when its exit status is not
    /// `expecting` (installtop's plan off a terminal exits 1: not run without --yes).
    private static func time(_ contender: Contender, expecting: Int32 = 0) -> Timing? {
        let result = spawn(contender.arguments, readStatus: contender.timesStatus)
        guard result.status == expecting else { return nil }
        var timing = Timing(wall: result.wall)
        // Before the first pmstatus line nothing has changed and a stop is immediate.
        var previous: Double?
        var runStarted: Double?
        var unpacked: Set<Substring> = []
        func dpkgRunEnded(at: Double) {
            guard let started = runStarted else { return }
            timing.longestDpkgRun = max(timing.longestDpkgRun ?? 0, at - started)
            timing.mostUnconfigured = max(timing.mostUnconfigured, unpacked.count)
        }
        for (at, line) in result.statusLines {
            let fields = line.split(separator: ":", maxSplits: 3)
            guard fields.count == 4, fields[0] == "pmstatus" else { continue }
            if fields[1] == "dpkg-exec" {
                dpkgRunEnded(at: at)
                runStarted = at
                timing.dpkgRuns += 1
                continue
            }
            if fields[3].hasPrefix("Unpacking ") { unpacked.insert(fields[1]) }
            if fields[3].hasPrefix("Installed ") { unpacked.remove(fields[1]) }
            guard let since = previous else {
                previous = at
                timing.dpkgPart = result.wall - at
                continue
            }
            guard fields[3].hasPrefix("Installed ") else { continue }
            if at - since > timing.longestGap ?? 0 {
                timing.longestGap = at - since
                timing.gapPackage = String(fields[1])
            }
            previous = at
        }
        dpkgRunEnded(at: result.wall)
        return timing
    }

    /// What `apt-get -s` prints for installing `packages` in `chroot` with
    /// `Immediate-Configure-All`: its `Inst` and `Conf` lines are the order apt will act in.
    static func simulation(installing packages: [String], in chroot: String) -> String {
        spawn(["/usr/sbin/chroot", chroot, "/usr/bin/apt-get", "-s", "-o", "APT::Immediate-Configure-All=1", "install"] + packages,
              captureOutput: true).output
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

    /// posix_spawn with stdin on /dev/null, stdout and stderr on /dev/null or a pipe, and fd 3 on
    /// a pipe whose lines are kept with the seconds since the start when `readStatus` (else on
    /// /dev/null). Waits for the end.
    static func spawn(_ arguments: [String], readStatus: Bool = false, captureOutput: Bool = false)
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
