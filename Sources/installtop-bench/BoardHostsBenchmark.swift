import Foundation
import EngineDaemon
import Glibc
import InstallDrivers
import InstallEngine
import Monitor
import MonitorRuntime

/// Issue 34's scale goal: the board on many hosts, each streaming a 200-package transaction
/// (`installtop-bench board-hosts [--hosts N] [--packages P] [--seconds S] [--installtop PATH]`).
/// N `installtop serve` processes on local sockets (the hosts' engines), each running a driver
/// job of P updates that reports start, progress and end of each in turn; the board in this
/// process reaches every engine as the board does, through `ssh HOST installtop bridge`, here a
/// stand-in ssh that runs the bridge to the host's socket. Measured while they stream: how long
/// until every host's queue is on the board, each frame (the engine events applied, then a
/// 200×60 frame drawn), the CPU of the board (its loop and its link's thread) against the wall
/// clock, and this process's threads. Goals (issue 34): frame ≤ 2 ms, CPU ≤ 10 % of a core,
/// attach ≤ 5 s, threads bounded. Printed, not asserted.
///
/// With `--pending` (issue 44's scale goal), the engines run no job: the board asks each for
/// its pending snapshot of its (empty, private) root once its queue is shown, and what is
/// measured is how long until every host's snapshot is on the board, with the frame and CPU
/// goals as before; the hosts are sorted security first (`o` three times), so that every frame
/// also sorts them. With `--refresh` too (`--parallel N`, 10 by default), each engine has a root
/// of its own on one shared repository, and once every snapshot is shown every host is marked
/// and `P` refreshes them all, N at a time: measured until the last refresh job ended, with the
/// most hosts seen refreshing at once and the frames and CPU of that phase alone. With
/// `--change` (issue 55's goal), each engine has a root of its own, and once every snapshot is
/// shown, every root's dpkg status is rewritten the way dpkg does it (a new file renamed over
/// the old) at once: measured until every host's row shows a snapshot computed after it (the
/// engines notice it and push it; the board asks nothing), with the frames and CPU of that phase.
enum BoardHostsBenchmark {
    static let all = [Benchmark(name: "board-hosts", run: run)]

    static func run() async {
        let arguments = CommandLine.arguments
        func value(_ option: String) -> String? {
            arguments.firstIndex(of: option).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
        }
        let hosts = value("--hosts").flatMap(Int.init) ?? 200
        let packages = value("--packages").flatMap(Int.init) ?? 200
        let seconds = value("--seconds").flatMap(Double.init) ?? 20
        let refresh = arguments.contains("--refresh")
        let change = arguments.contains("--change")
        let pending = arguments.contains("--pending") || refresh || change
        let parallel = value("--parallel").flatMap(Int.init) ?? 10
        let installtop = value("--installtop")
            ?? URL(fileURLWithPath: arguments[0]).deletingLastPathComponent().appendingPathComponent("installtop").path
        guard FileManager.default.isExecutableFile(atPath: installtop) else { return print("  skipped: no installtop at \(installtop)") }
        let folder = "/tmp/itb-board-\(getpid())"
        let quiet: PrivateAPTRoot
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            // The engines follow an empty private root's dpkg, never this machine's.
            quiet = try PrivateAPTRoot(temporaryWithPrefix: "itb-board-quiet")
            try writeFiles(in: folder, installtop: installtop, packages: packages, seconds: seconds)
            // Each engine's refresh updates lists of its own (apt locks them), all from one archive.
            if refresh { try quiet.publish([DebianPackageRecipe(name: "itb-one")]) }
            for index in 0..<hosts where refresh || change {
                _ = try PrivateAPTRoot(folder: "\(folder)/root-\(index)", sharing: quiet.repository)
            }
        } catch {
            return print("  cannot set up: \(error)")
        }
        defer {
            quiet.remove()
            try? FileManager.default.removeItem(atPath: folder)
        }
        // The engines, each with its job streaming before the board attaches.
        var engines: [Process] = []
        defer {
            for engine in engines where engine.isRunning { kill(engine.processIdentifier, SIGTERM) }
            for engine in engines { engine.waitUntilExit() }
        }
        for index in 0..<hosts {
            let engine = Process()
            engine.executableURL = URL(fileURLWithPath: installtop)
            let configuration = refresh || change ? "\(folder)/root-\(index)/apt.conf" : quiet.configuration
            engine.arguments = ["serve", "--socket", "\(folder)/e\(index).sock", "--no-history", "--apt-config", configuration]
            engine.standardOutput = FileHandle.nullDevice
            engine.standardError = FileHandle.nullDevice
            do { try engine.run() } catch { return print("  cannot start engine \(index): \(error)") }
            engines.append(engine)
        }
        let deadline = Date().addingTimeInterval(120)
        while (0..<hosts).contains(where: { !FileManager.default.fileExists(atPath: "\(folder)/e\($0).sock") }), Date() < deadline { usleep(20_000) }
        for index in 0..<hosts where !pending {
            let submitted = SystemCommand.run([installtop, "submit", "\(folder)/stream.yaml", "--socket", "\(folder)/e\(index).sock"])
            guard submitted.status == 0 else { return print("  submit to engine \(index) failed: \(submitted.stderr)") }
        }
        if change {
            print("  \(hosts) engines, each with a private root of its own, then every root's dpkg status rewritten at once; load \(loadAverage())")
        } else if refresh {
            print("  \(hosts) engines, each with a private root of its own, then every host's lists refreshed \(parallel) at a time; load \(loadAverage())")
        } else if pending {
            print("  \(hosts) engines, no job, each keeping a pending snapshot of an empty private root; load \(loadAverage())")
        } else {
            print("  \(hosts) engines, each streaming a driver job of \(packages) updates over about \(Int(seconds)) s; load \(loadAverage())")
        }
        measure(folder: folder, hosts: hosts, seconds: seconds, pending: pending, refreshParallel: refresh ? parallel : nil,
                changing: change ? (0..<hosts).map { "\(folder)/root-\($0)/root/var/lib/dpkg" } : nil,
                engines: engines.map(\.processIdentifier))
    }

    /// The CPU seconds `pids` and their reaped children (a snapshot's apt) have used: what the
    /// engines' computations cost, for the floor of a change on one machine's cores.
    private static func enginesCPU(_ pids: [Int32]) -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return pids.reduce(0) { total, pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return total }
            // After the command: state is field 3; utime, stime, cutime, cstime are 14–17.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 14 else { return total }
            return total + fields[11...14].compactMap { Double($0) }.reduce(0, +) / ticks
        }
    }

    /// Rewrites each dpkg status file in `folders` as dpkg does: the new one written beside, then
    /// renamed over the old; its content unchanged.
    private static func rewriteStatus(in folders: [String]) {
        for folder in folders {
            let content = FileManager.default.contents(atPath: folder + "/status") ?? Data()
            _ = FileManager.default.createFile(atPath: folder + "/status-new", contents: content)
            _ = rename(folder + "/status-new", folder + "/status")
        }
    }

    /// The board on every engine, fed and drawn as the monitor's loop does, for `seconds`.
    private static func measure(folder: String, hosts: Int, seconds: Double, pending: Bool, refreshParallel: Int?, changing: [String]?,
                                engines: [Int32]) {
        let commands = (0..<hosts).map { SSHCommand(host: "\(folder)/e\($0).sock", remoteCommand: "bridge", program: "\(folder)/ssh") }
        let mailbox: Mailbox
        do { mailbox = try Mailbox() } catch { return print("  no mailbox: \(error)") }
        let link = HostsEngineLink(hosts: commands)
        var state = MonitorState(width: 200, height: 60, now: Date())
        state.rolloutParallel = refreshParallel ?? state.rolloutParallel
        let theme = ThemeCatalog(userDirectory: nil).themes[0]
        let clock = ContinuousClock()
        let started = clock.now
        let cpuBefore = boardCPU()
        link.start(posting: mailbox)
        defer { link.stop() }
        var replaced = Set<String>()
        var attached: Duration?
        var snapshotsShown: Duration?
        var frames: [Duration] = []
        var events = 0
        var peakThreads = 0
        var checksum = 0
        // The refresh phase (`--refresh`): when P was pressed, when the last refresh ended, the
        // most hosts refreshing at once, its frames and the board's CPU then.
        var refreshStarted: (at: ContinuousClock.Instant, cpu: Double)?
        var refreshEnded: (at: ContinuousClock.Instant, cpu: Double)?
        var refreshingPeak = 0
        var refreshFrames: [Duration] = []
        // The change phase (`--change`): when the roots were rewritten (and the board's CPU then),
        // when every row showed a snapshot computed after it, and its frames.
        var changed: (at: ContinuousClock.Instant, date: Date, cpu: Double, engines: Double)?
        var changeSeen: (at: ContinuousClock.Instant, cpu: Double, engines: Double)?
        var changeFrames: [Duration] = []
        // What the monitor's loop would send: here, the refreshes.
        func perform(_ effects: [MonitorEffect]) {
            for case .refreshOnHost(let host) in effects { link.refreshLists(onHost: host) }
        }
        let limit = Duration.seconds(seconds) + (refreshParallel == nil ? .zero : .seconds(600))
        while clock.now - started < limit, refreshParallel == nil || refreshEnded == nil || clock.now - started < .seconds(seconds),
              changing == nil || changeSeen == nil {
            let frame = clock.measure {
                var batch: [EngineEvent] = []
                for item in mailbox.drain() {
                    switch item {
                    case .engine(let event):
                        batch.append(event)
                        continue
                    case .monitor(let event):
                        if case .host(.queueReplaced(let host)) = event { replaced.insert(host) }
                        if !batch.isEmpty { perform(state.handle(.engineEvents(batch))); events += batch.count; batch = [] }
                        perform(state.handle(event))
                    case .commandResult(let text):
                        _ = state.handle(.commandResult(text))
                    case .linkLost, .ready:
                        break
                    }
                }
                if !batch.isEmpty { perform(state.handle(.engineEvents(batch))); events += batch.count }
                if pending, state.board?.hostSort == .given {
                    for _ in 0..<3 { _ = state.handle(.key(.character("o"))) }
                }
                if let changing, changed == nil, state.board?.pending.count == hosts, state.board?.pendingComputing.isEmpty == true {
                    changed = (clock.now, Date(), boardCPU(), enginesCPU(engines))
                    rewriteStatus(in: changing)
                }
                if refreshParallel != nil, refreshStarted == nil, state.board?.pending.count == hosts {
                    refreshStarted = (clock.now, boardCPU())
                    _ = state.handle(.key(.character("M")))
                    perform(state.handle(.key(.character("P"))))
                }
                _ = state.handle(.tick(Date()))
                checksum &+= MonitorRenderer.render(state, theme: theme).cells.count
            }
            frames.append(frame)
            if refreshStarted != nil, refreshEnded == nil { refreshFrames.append(frame) }
            if let changed, changeSeen == nil {
                changeFrames.append(frame)
                let fresh = state.board?.pending.values.count { $0.computedAt >= changed.date } ?? 0
                if fresh == hosts { changeSeen = (clock.now, boardCPU(), enginesCPU(engines)) }
            }
            refreshingPeak = max(refreshingPeak, state.refreshBatch?.sent.count ?? 0)
            if refreshStarted != nil, refreshEnded == nil, state.refreshBatch == nil { refreshEnded = (clock.now, boardCPU()) }
            if attached == nil, replaced.count == hosts { attached = clock.now - started }
            if snapshotsShown == nil, state.board?.pending.count == hosts { snapshotsShown = clock.now - started }
            peakThreads = max(peakThreads, threadCount())
            usleep(33_000)
        }
        let wall = clock.now - started
        let cpu = boardCPU() - cpuBefore
        frames.sort()
        func ms(_ duration: Duration) -> String { String(format: "%.2f ms", duration / .milliseconds(1)) }
        print("  attach: every host's queue on the board after \(attached.map { String(format: "%.2f s", $0 / .seconds(1)) } ?? "never (\(replaced.count) of \(hosts))") (goal ≤ 5 s)")
        if pending {
            let shown = state.board?.pending.count ?? 0
            let text = snapshotsShown.map { String(format: "%.2f s", $0 / .seconds(1)) } ?? "never (\(shown) of \(hosts))"
            print("  pending: every host's snapshot on the board after \(text) (goal ≤ 5 s), sorted \(state.board?.hostSort.title ?? "?"); "
                  + "a row says: \(state.board?.hosts.first.flatMap { state.pendingText(ofHost: $0.name) } ?? "nothing")")
        }
        if let changed {
            changeFrames.sort()
            let end = changeSeen ?? (clock.now, boardCPU(), enginesCPU(engines))
            let span = (end.at - changed.at) / .seconds(1)
            let engineSeconds = end.engines - changed.engines
            let fresh = state.board?.pending.values.count { $0.computedAt >= changed.date } ?? 0
            print("  change: " + (changeSeen == nil ? "\(fresh) of \(hosts) rows" : "every row") + String(format: " showed a snapshot computed after it %.2f s after every root's dpkg status was rewritten (goal ≤ 5 s); ", span)
                  + (changeFrames.isEmpty ? "no frame" : "its frames median \(ms(changeFrames[changeFrames.count / 2])), p99 \(ms(changeFrames[changeFrames.count * 99 / 100]))")
                  + String(format: ", board CPU %.1f %% of a core", (end.cpu - changed.cpu) / max(span, 0.001) * 100))
            // The floor on this machine: every engine's computation shares its cores, where each
            // host would compute on its own.
            let cores = Double(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
            print(String(format: "  change: the engines used %.1f CPU s for it (%.0f ms a host): at least %.1f s on %.0f cores, however it is scheduled",
                         engineSeconds, engineSeconds / Double(hosts) * 1000, engineSeconds / cores, cores))
        }
        if let refreshStarted {
            refreshFrames.sort()
            let end = refreshEnded ?? (clock.now, boardCPU())
            let span = (end.at - refreshStarted.at) / .seconds(1)
            let failed = state.board?.hosts.count { host in
                state.jobs(ofHost: host.name).contains { $0.descriptor.name == "Refresh apt's lists" && $0.shownResultCode != .succeeded }
            } ?? 0
            let done = refreshEnded == nil ? "not every host's lists refreshed (timed out)" : "every host's lists refreshed"
            print("  refresh: \(done) after " + String(format: "%.1f s, at most %d at once (--parallel %d), %d failed; ",
                                                       span, refreshingPeak, refreshParallel ?? 0, failed)
                  + (refreshFrames.isEmpty ? "no frame" : "its frames median \(ms(refreshFrames[refreshFrames.count / 2])), p99 \(ms(refreshFrames[refreshFrames.count * 99 / 100]))")
                  + String(format: ", board CPU %.1f %% of a core", (end.cpu - refreshStarted.cpu) / max(span, 0.001) * 100))
        }
        print("  frames (events applied, then a 200×60 frame drawn): \(frames.count), median \(ms(frames[frames.count / 2])), p99 \(ms(frames[frames.count * 99 / 100])), max \(ms(frames.last ?? .zero)) (goal ≤ 2 ms)")
        print(String(format: "  events applied: %d (%.0f/s); board CPU (its loop and its link's thread): %.1f %% of a core (goal ≤ 10 %%)",
                     events, Double(events) / (wall / .seconds(1)), cpu / (wall / .seconds(1)) * 100))
        print("  this process's threads at the peak: \(peakThreads) (the board's link: one thread for all the hosts); load \(loadAverage())")
        if checksum == 0 { print("  (no cells drawn)") }
    }

    /// The driver (a plan of `packages` updates, each started, at 50 %, finished, spread over
    /// `seconds`), its manifest, and the stand-in ssh that runs `installtop bridge` to the
    /// socket named as the host.
    private static func writeFiles(in folder: String, installtop: String, packages: Int, seconds: Double) throws {
        let step = seconds / Double(packages)
        try """
            import json, os, sys, time
            out = os.fdopen(3, "w")
            def say(message):
                out.write(json.dumps(message) + "\\n")
                out.flush()
            say({"type": "hello", "protocol": 1, "driver": "board-bench"})
            ids = ["pkg-%03d" % n for n in range(\(packages))]
            say({"type": "plan", "job": "t", "name": "Transaction", "operation": "install",
                 "updates": [{"id": i, "title": i + " 1.0 → 2.0"} for i in ids]})
            for i in ids:
                say({"type": "started", "job": "t", "update": i})
                time.sleep(\(step / 2))
                say({"type": "progress", "job": "t", "update": i, "percent": 50})
                time.sleep(\(step / 2))
                say({"type": "finished", "job": "t", "update": i, "result": "succeeded"})
            say({"type": "jobEnded", "job": "t", "reason": "done"})
            """.write(toFile: folder + "/driver.py", atomically: true, encoding: .utf8)
        try """
            jobs:
              - name: Stream
                driver: {command: [/usr/bin/python3, \(folder)/driver.py]}
            """.write(toFile: folder + "/stream.yaml", atomically: true, encoding: .utf8)
        try """
            #!/bin/sh
            while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
            exec '\(installtop)' bridge --socket "$2"
            """.write(toFile: folder + "/ssh", atomically: true, encoding: .utf8)
        chmod(folder + "/ssh", 0o755)
    }

    /// CPU seconds of this thread (the board's loop) and of the board link's thread.
    private static func boardCPU() -> Double {
        var own = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &own)
        var total = Double(own.tv_sec) + Double(own.tv_nsec) / 1e9
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [] {
            let comm = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? ""
            guard comm.hasPrefix("installtop-boar"), let stat = try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // utime and stime are fields 14 and 15 of stat; after the name, 12 and 13 (0-based 11, 12).
            if fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) { total += (user + system) / ticks }
        }
        return total
    }

    private static func threadCount() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("Threads:") {
            return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? 0
        }
        return 0
    }
}
