import EngineWire
import Foundation
import Glibc
import InstallDrivers
import InstallEngine
import Synchronization

/// Benchmarks of apt jobs (issue 11): what installtop adds to a real apt transaction in a
/// private root, and what reading apt's Status-Fd lines costs. Both need only dpkg and apt;
/// nothing of the host's packages is read or changed (every root is private, Documentation/PACKAGE-FACTS.md).
enum APTBenchmarks {
    static let all: [Benchmark] = [
        Benchmark(name: "apt-overhead", run: aptOverhead),
        Benchmark(name: "apt-status-stream", run: aptStatusStream),
    ]

    // MARK: - apt-overhead

    /// The same 200-package install in a fresh private root each run: apt-get by hand with the
    /// driver's options, then through installtop's engine in this process (APTPlanner, then
    /// APTDriver on a JobQueue with a subscriber that encodes every event as `--json` does), then
    /// apt-get by hand with apt's default options (no `DpkgArchiveGate`: what the safe point
    /// between archives costs). Prints medians; goal for the engine: ≤ 1.05 × the hand-run wall
    /// time.
    static func aptOverhead() async {
        do {
            try PrivateAPTRoot.requireTools()
        } catch {
            print("  skipped: \(error)")
            return
        }
        let count = 200
        let runs = 5
        let names = (0..<count).map { String(format: "bench-%03d", $0) }
        // 20 chains of 10 (each package needs the one before it), a quarter with a postinst:
        // dependencies and maintainer scripts as a real upgrade has them, tiny payloads.
        let recipes = names.enumerated().map { index, name in
            DebianPackageRecipe(
                name: name, depends: index % 10 == 0 ? nil : names[index - 1], summary: "installtop-bench package \(index)",
                postinst: index % 4 == 0 ? "mkdir -p \"$DPKG_ROOT/var/lib/bench\"\ntouch \"$DPKG_ROOT/var/lib/bench/\(name)\"" : nil,
                files: ["/usr/share/installtop-bench/\(name)": String(repeating: "\(name)\n", count: 50)])
        }
        let repository: PrivateAPTRoot
        do {
            repository = try PrivateAPTRoot(temporaryWithPrefix: "installtop-bench-apt-repo")
        } catch {
            print("  skipped: \(error)")
            return
        }
        defer { repository.remove() }
        let built = ContinuousClock().measure {
            do { try repository.publish(recipes) } catch { print("  failed to build the packages: \(error)") }
        }
        print("  built and indexed \(count) packages (20 chains of 10, every 4th with a postinst) in \(milliseconds(built))")

        let request = PackageRequest.install(names)
        // One gate for every hand run: dpkg runs on this system (the roots are given by
        // `--root`), so the gate's folder may be anywhere.
        let gateFolder = FileManager.default.temporaryDirectory.path + "/installtop-bench-gate-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: gateFolder) }
        guard let gate = DpkgArchiveGate.make(for: APTEnvironment(aptConfig: nil, administrativeDirectory: "/", root: gateFolder, dpkgOptions: [])) else {
            print("  skipped: the gate's folder could not be made under \(gateFolder)")
            return
        }
        let safe = APTCommandLine(request: request).transaction(through: gate)
        // apt's defaults: the same command without the gate that makes each archive a safe point.
        var unsafe = safe
        if let option = unsafe.firstIndex(where: { $0.hasPrefix("DPkg::Path=") }) { unsafe.removeSubrange((option - 1)...option) }

        var byHand: [Sample] = []
        var byEngine: [EngineSample] = []
        var byDefault: [Sample] = []
        var byReader: [Sample] = []
        // One unmeasured run of each first: the page cache, dpkg's and apt's own start-up.
        for run in 0...runs {
            guard let hand = runByHand(safe, repository: repository.repository, expecting: count),
                  let engine = await runThroughEngine(request, repository: repository.repository, expecting: count),
                  let plain = runByHand(unsafe, repository: repository.repository, expecting: count),
                  let read = runByHand(safe, repository: repository.repository, expecting: count, readingOutput: true) else { return }
            if run > 0 {
                byHand.append(hand)
                byEngine.append(engine)
                byDefault.append(plain)
                byReader.append(read)
            }
        }
        let hand = median(byHand.map(\.wall))
        let engineTotal = median(byEngine.map(\.total.wall))
        let engineRun = median(byEngine.map(\.transactionWall))
        let plan = median(byEngine.map(\.planWall))
        let plain = median(byDefault.map(\.wall))
        let ownCPU = median(byEngine.map(\.total.ownCPU))
        let childCPU = median(byEngine.map(\.total.childCPU))
        print("  median of \(runs) runs, each in a fresh private root (apt-get update not timed):")
        print("  apt-get by hand, installtop's options:  wall \(milliseconds(hand)); apt+dpkg CPU \(milliseconds(median(byHand.map(\.childCPU))))")
        print("  through installtop (in-process engine: APTPlanner, APTDriver on a JobQueue, JSON-encoding subscriber):")
        print("    plan + transaction: wall \(milliseconds(engineTotal)), ratio \(ratio(engineTotal / hand))×  (goal ≤ 1.05×)")
        print("    plan alone \(milliseconds(plan)) (apt-config, apt-get -s, --print-uris); transaction alone \(milliseconds(engineRun)), "
            + "ratio \(ratio(engineRun / hand))×")
        print("    installtop's own CPU \(milliseconds(ownCPU)) = \(percent(ownCPU / childCPU)) of apt's and dpkg's "
            + "\(milliseconds(childCPU)) (its children, planning included); of it, the plan \(milliseconds(median(byEngine.map(\.planOwnCPU)))); "
            + "\(byEngine.map(\.total.wakeUps).sorted()[byEngine.count / 2]) context switches of its threads")
        let readerCPU = median(byReader.map(\.ownCPU))
        let readerChildCPU = median(byReader.map(\.childCPU))
        print("  apt-get by hand, its stdout, stderr and Status-Fd read by a bare poll() loop that keeps nothing (the floor of reading them):")
        print("    the reader's CPU \(milliseconds(readerCPU)) = \(percent(readerCPU / readerChildCPU)) of apt's and dpkg's \(milliseconds(readerChildCPU)); "
            + "\(byReader.map(\.wakeUps).sorted()[byReader.count / 2]) wake-ups, \(byReader.map(\.bytes).sorted()[byReader.count / 2] / 1024) KiB")
        print("  apt-get by hand, apt's default options (no gate): wall \(milliseconds(plain)); "
            + "apt+dpkg CPU \(milliseconds(median(byDefault.map(\.childCPU))))")
        print("    the safe point between archives costs \(ratio(hand / plain))× apt's default wall time (\(signedMilliseconds(hand - plain)) for \(count) packages)")
    }

    /// Wall time and CPU of one run: this process's own (user + system, all threads) and that
    /// of its children (apt, dpkg, maintainer scripts: every waited-for descendant).
    private struct Sample {
        var wall: Duration
        var ownCPU: Duration
        var childCPU: Duration
        /// With its output read (`ReadingFloor`): the reader's wake-ups and the bytes read;
        /// through the engine: the context switches of this process's threads.
        var wakeUps = 0
        var bytes = 0
    }

    private struct EngineSample {
        var total: Sample
        var planWall: Duration
        var transactionWall: Duration
        /// This process's own CPU while it planned (reading apt-get -s and --print-uris).
        var planOwnCPU: Duration
    }

    /// `arguments` (apt-get …) in a fresh root sharing `repository`, stdin, stdout and stderr on
    /// /dev/null and the status fd (3) too, or with `readingOutput` the three on pipes this
    /// process reads (`ReadingFloor`); `nil` after printing why when it failed.
    private static func runByHand(_ arguments: [String], repository: String, expecting count: Int, readingOutput: Bool = false) -> Sample? {
        guard let root = freshRoot(sharing: repository) else { return nil }
        defer { root.remove() }
        var environment = ProcessInfo.processInfo.environment.merging(APTCommandLine.environment) { _, new in new }
        environment["APT_CONFIG"] = root.configuration
        let before = usage()
        let clock = ContinuousClock()
        let started = clock.now
        var read: ReadingFloor.Result?
        let status: Int32
        if readingOutput {
            read = ReadingFloor.run(arguments, environment: environment)
            status = read?.status ?? -1
        } else {
            status = spawnAndWait(arguments, environment: environment)
        }
        let wall = clock.now - started
        let after = usage()
        guard status == 0 else {
            print("  apt-get by hand exited with status \(status)")
            return nil
        }
        guard installed(in: root) == count else {
            print("  apt-get by hand installed \(installed(in: root)) of \(count) packages")
            return nil
        }
        return Sample(wall: wall, ownCPU: after.own - before.own, childCPU: after.children - before.children,
                      wakeUps: read?.wakeUps ?? 0, bytes: read?.bytes ?? 0)
    }

    /// The same install as installtop runs it: the plan, then one driver job on a JobQueue.
    private static func runThroughEngine(_ request: PackageRequest, repository: String, expecting count: Int) async -> EngineSample? {
        guard let root = freshRoot(sharing: repository) else { return nil }
        defer { root.remove() }
        let queue = JobQueue(backend: ProcessBackend(), configuration: EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-bench"))
        // What `--json` does with every event, minus the write.
        queue.subscribe { event in _ = EventCoding.encode(event) }
        let before = usage()
        let clock = ContinuousClock()
        let started = clock.now
        let plan: APTPlan
        do {
            plan = try APTPlanner.plan(PackageJob(request: request, aptConfig: root.configuration))
        } catch {
            print("  the plan failed: \(error)")
            return nil
        }
        let planned = clock.now
        let afterPlan = usage()
        do {
            try queue.submit(name: "bench", operation: request.operation, updates: plan.updates, driver: APTDriver(plan: plan))
        } catch {
            print("  the job was refused: \(error)")
            return nil
        }
        await queue.waitUntilIdle()
        let ended = clock.now
        let after = usage()
        let results = queue.snapshot().jobs.first?.updates.map(\.result.resultCode) ?? []
        let succeeded = results.filter { $0 == .succeeded }.count
        guard succeeded == count, installed(in: root) == count else {
            print("  through the engine: \(succeeded) of \(count) updates succeeded, dpkg shows \(installed(in: root)) installed")
            return nil
        }
        return EngineSample(
            total: Sample(wall: ended - started, ownCPU: after.own - before.own, childCPU: after.children - before.children,
                          wakeUps: after.switches - before.switches),
            planWall: planned - started, transactionWall: ended - planned, planOwnCPU: afterPlan.own - before.own)
    }

    private static func freshRoot(sharing repository: String) -> PrivateAPTRoot? {
        do {
            let root = try PrivateAPTRoot(temporaryWithPrefix: "installtop-bench-apt", sharing: repository)
            do {
                try root.update()
            } catch {
                root.remove()
                throw error
            }
            return root
        } catch {
            print("  cannot make a private root: \(error)")
            return nil
        }
    }

    /// How many packages dpkg shows installed (`ii`) in `root`.
    private static func installed(in root: PrivateAPTRoot) -> Int {
        APTPackageState.query(administrativeDirectory: root.root + "/var/lib/dpkg").values.filter { $0.status == "ii" }.count
    }

    /// posix_spawn (not Foundation's Process, whose start-up would be counted on apt's side)
    /// with fds 0–3 on /dev/null; waits and returns the exit status.
    private static func spawnAndWait(_ arguments: [String], environment: [String: String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for descriptor: Int32 in 1...3 { posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0) }
        var argv = arguments.map { strdup($0) } + [nil]
        var envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    // MARK: - apt-status-stream

    /// A synthetic Status-Fd stream of 5,000 packages (a `dlstatus` line each, then `pmstatus`
    /// Preparing, Unpacking, Preparing to configure, Configuring, Installed per package):
    /// first through `APTTransactionTracker` alone, then through the whole path, the real
    /// `APTDriver` reading it from a stand-in apt-get on a JobQueue, with a subscriber that only
    /// counts, then with one that encodes every event as a JSON line (as the daemon does for its
    /// clients; `--json` writes fewer, at most one progress line per update per 50 ms). Prints
    /// this process's CPU seconds for each; goal ≤ 0.1 s.
    static func aptStatusStream() async {
        let count = 5000
        let names = (0..<count).map { String(format: "stream-%05d", $0) }
        let changes = names.map { PackageChange(package: $0, action: .install, newVersion: "1.0", architecture: "all") }
        let downloads = names.map { APTDownload(uri: "file:/repo/./\($0)_1.0_all.deb", fileName: "\($0)_1.0_all.deb", package: $0, size: 4096) }
        let lines = statusLines(names)
        print("  \(count) packages, \(lines.count) Status-Fd lines (\(lines.reduce(0) { $0 + $1.utf8.count + 1 } / 1024) KiB)")

        // The parser alone.
        var tracker = APTTransactionTracker(plan: changes, downloads: downloads)
        var events = 0
        let parserCPU = cpuSeconds()
        // The first `count` lines are the downloads: timed apart, since each `dlstatus:N` line
        // also stands for files 1…N-1 (they are done once file N is fetched).
        for line in lines.prefix(count) { events += tracker.consume(line).count }
        let downloadSeconds = cpuSeconds() - parserCPU
        for line in lines.dropFirst(count) { events += tracker.consume(line).count }
        let parserSeconds = cpuSeconds() - parserCPU
        print("  APTTransactionTracker alone: \(String(format: "%.3f", parserSeconds)) s CPU (goal ≤ 0.1 s; the \(count) dlstatus lines "
            + "\(String(format: "%.3f", downloadSeconds)) s of it), \(events) events, \(tracker.ignoredLines) lines ignored")

        // The whole path: a stand-in apt-get prints the stream on fd 3 (APT::Status-Fd=3), the
        // driver reads it through APTRunState into reports, the engine into events. Its dpkg
        // database lists every package installed, so the final check agrees with the stream.
        let folder = FileManager.default.temporaryDirectory.path + "/installtop-bench-stream-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment: APTEnvironment
        let fakeAptGet = folder + "/apt-get"
        do {
            try FileManager.default.createDirectory(atPath: folder + "/root/var/lib/dpkg", withIntermediateDirectories: true)
            try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/stream", atomically: false, encoding: .utf8)
            try "#!/bin/sh\nexec cat '\(folder)/stream' >&3\n".write(toFile: fakeAptGet, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fakeAptGet)
            let status = names.map { "Package: \($0)\nStatus: install ok installed\nVersion: 1.0\nArchitecture: all\nMaintainer: bench <bench@invalid>\nDescription: bench\n" }
            try status.joined(separator: "\n").write(toFile: folder + "/root/var/lib/dpkg/status", atomically: false, encoding: .utf8)
            environment = APTEnvironment(aptConfig: nil, administrativeDirectory: folder + "/root/var/lib/dpkg", root: folder + "/root", dpkgOptions: [])
        } catch {
            print("  cannot write the stand-in apt-get: \(error)")
            return
        }
        let plan = APTPlan(job: PackageJob(request: .install(names)), environment: environment, changes: changes, downloads: downloads)
        print("  whole path (stand-in apt-get → ProcessBackend → APTDriver/APTRunState → JobQueue/JobMachine → subscriber):")
        let peakBefore = memoryUsage().peakKiB
        await wholePath(plan: plan, aptGet: fakeAptGet, subscriber: "a counting subscriber") { _ in }
        print("      the process's peak resident memory grew by \((memoryUsage().peakKiB - peakBefore) / 1024) MiB")
        // What the daemon's clients cost on top: every event encoded as a line.
        await wholePath(plan: plan, aptGet: fakeAptGet, subscriber: "a subscriber encoding every event as a JSON line") { event in
            _ = EventCoding.line(event)
        }
    }

    /// Runs `plan`'s stand-in apt-get through a fresh queue with `handle` as its subscriber and
    /// prints this process's CPU for it and its page faults.
    private static func wholePath(plan: APTPlan, aptGet: String, subscriber: String, _ handle: @escaping @Sendable (EngineEvent) -> Void) async {
        let queue = JobQueue(backend: ProcessBackend(), configuration: EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-bench"))
        let events = EventCounter()
        queue.subscribe { event in
            events.add()
            handle(event)
        }
        let faultsBefore = memoryUsage().faults
        let engineCPU = cpuSeconds()
        let wall = await ContinuousClock().measure {
            _ = try? queue.submit(name: "stream", updates: plan.updates, driver: APTDriver(plan: plan, aptGet: aptGet))
            await queue.waitUntilIdle()
        }
        let engineSeconds = cpuSeconds() - engineCPU
        let faults = memoryUsage().faults - faultsBefore
        let results = queue.snapshot().jobs.first?.updates.map(\.result.resultCode) ?? []
        print("    with \(subscriber): \(String(format: "%.3f", engineSeconds)) s CPU (goal ≤ 0.1 s), wall \(milliseconds(wall)), "
            + "\(events.count) events, \(results.filter { $0 == .succeeded }.count) of \(plan.changes.count) updates succeeded")
        // Each page of memory first touched is a fault, in the kernel's time: before a flood's
        // reports and actions went through in pieces, their arrays were a quarter of this CPU.
        print("      \(faults) page faults")
    }

    /// What apt prints on Status-Fd for `names`: a `dlstatus` line per file, `Running dpkg`,
    /// then each package's five `pmstatus` lines, with apt's overall percent rising.
    private static func statusLines(_ names: [String]) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(names.count * 6 + 1)
        let steps = Double(names.count * 6)
        var step = 0.0
        func overall() -> String {
            step += 1
            return String(format: "%.4f", min(99.9, step / steps * 100))
        }
        for (index, _) in names.enumerated() {
            lines.append("dlstatus:\(index + 1):\(overall()):Retrieving file \(index + 1) of \(names.count)")
        }
        lines.append("pmstatus:dpkg-exec:\(overall()):Running dpkg")
        for name in names {
            for phase in ["Preparing", "Unpacking", "Preparing to configure", "Configuring", "Installed"] {
                lines.append("pmstatus:\(name):\(overall()):\(phase) \(name) (all)")
            }
        }
        return lines
    }

    // MARK: - Helpers

    /// Counts events from the engine's callback queue.
    private final class EventCounter: Sendable {
        private let value = Mutex(0)
        func add() { value.withLock { $0 += 1 } }
        var count: Int { value.withLock { $0 } }
    }

    /// CPU of this process and of its waited-for children, and this process's context switches
    /// (each time one of its threads went to sleep or was preempted: its wake-ups, roughly).
    private static func usage() -> (own: Duration, children: Duration, switches: Int) {
        func read(_ who: Int32) -> rusage {
            var usage = rusage()
            getrusage(who, &usage)
            return usage
        }
        func duration(_ usage: rusage) -> Duration {
            .seconds(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + .microseconds(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        }
        let own = read(RUSAGE_SELF.rawValue)
        return (duration(own), duration(read(RUSAGE_CHILDREN.rawValue)), own.ru_nvcsw + own.ru_nivcsw)
    }

    /// This process's page faults (minor and major) and its peak resident memory so far.
    private static func memoryUsage() -> (faults: Int, peakKiB: Int) {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return (usage.ru_minflt + usage.ru_majflt, usage.ru_maxrss)
    }

    private static func milliseconds(_ duration: Duration) -> String {
        String(format: "%.1f ms", duration / .milliseconds(1))
    }

    private static func signedMilliseconds(_ duration: Duration) -> String {
        String(format: "%+.1f ms", duration / .milliseconds(1))
    }

    private static func ratio(_ value: Double) -> String { String(format: "%.3f", value) }

    private static func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }
}
