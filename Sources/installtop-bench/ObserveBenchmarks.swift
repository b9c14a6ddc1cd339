import EngineDaemon
import Foundation
import Glibc
import InstallDrivers
import InstallEngine

/// Benchmarks of observation (issue 21): what installtop-relay costs to start, against
/// installtop itself; the time from a dpkg status line to its event at a subscriber
/// (`ObserveLatency`); and what the hooks cost a real apt transaction in a private root: no
/// hooks, hooks with an engine listening (a server in this process), hooks with no engine, and
/// apart from those a run whose relays are timed one by one (`RelayTiming`).
/// Needs the release build of `installtop` and `installtop-relay` next to this program.
/// Usage: `installtop-bench observe [--packages N] [--rounds N]`.
enum ObserveBenchmarks {
    static let all = [Benchmark(name: "observe", run: run)]

    static func run() async {
        let arguments = CommandLine.arguments
        func value(_ option: String) -> Int? {
            arguments.firstIndex(of: option).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil }
        }
        let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
        let installtop = folder + "/installtop"
        let relay = folder + "/installtop-relay"
        guard FileManager.default.isExecutableFile(atPath: installtop), FileManager.default.isExecutableFile(atPath: relay) else {
            return print("  skipped: build installtop and installtop-relay first (swift build -c release)")
        }
        startup(relay: relay, installtop: installtop)
        ObserveLatency.run(relay: relay)
        do {
            try PrivateAPTRoot.requireTools()
        } catch {
            return print("  skipped the apt part: \(error)")
        }
        await transaction(installtop: installtop, count: value("--packages") ?? 200, rounds: value("--rounds") ?? 5)
    }

    // MARK: - Start-up

    /// Median wall time of 50 starts each, input /dev/null (the relay then sends nothing).
    private static func startup(relay: String, installtop: String) {
        // The package's relay: installtop under the relay's name (Scripts/build-deb's link).
        let linkFolder = FileManager.default.temporaryDirectory.appending(path: "installtop-bench-relay-\(getpid())").path
        let link = linkFolder + "/installtop-relay"
        try? FileManager.default.createDirectory(atPath: linkFolder, withIntermediateDirectories: true)
        try? FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: installtop)
        defer { try? FileManager.default.removeItem(atPath: linkFolder) }
        let contenders: [(String, [String])] = [
            ("/bin/true", ["/bin/true"]),
            ("installtop-relay begin (no engine)", [relay, "begin", "--socket", "/nonexistent/installtop.sock"]),
            ("installtop as installtop-relay (the package's link)", [link, "begin", "--socket", "/nonexistent/installtop.sock"]),
            ("installtop --version", [installtop, "--version"]),
        ]
        print("  start-up, median of 50 (load \(loadAverage())):")
        for (name, command) in contenders {
            var walls: [Double] = []
            for _ in 0..<50 { walls.append(spawn(command, environment: [:]).wall) }
            print("    " + name.padding(toLength: 40, withPad: " ", startingAt: 0) + String(format: "%6.2f ms", median(walls) * 1000))
        }
    }

    // MARK: - A transaction

    private enum Setting: CaseIterable {
        case noHooks, engine, noEngine, relayTimed
        var name: String {
            switch self {
            case .noHooks: return "no hooks"
            case .engine: return "hooks, engine listening"
            case .noEngine: return "hooks, no engine"
            case .relayTimed: return "hooks, engine, relays timed"
            }
        }
    }

    private struct Sample {
        var wall: Double
        /// apt, dpkg, the maintainer scripts and the hooks: every waited-for descendant.
        var childCPU: Double
        /// This process, where the engine's server runs.
        var ownCPU: Double
        /// Every relay of the transaction (`.relayTimed` only, measured by `RelayTiming`).
        var relayCPU: Double
    }

    private static func transaction(installtop: String, count: Int, rounds: Int) async {
        let names = (0..<count).map { String(format: "observe-%03d", $0) }
        let recipes = names.enumerated().map { index, name in
            DebianPackageRecipe(name: name, postinst: index % 4 == 0 ? "echo configured \(name)" : nil,
                                files: ["/usr/share/installtop-bench/\(name)": "\(name)\n"])
        }
        let repository: PrivateAPTRoot
        do {
            repository = try PrivateAPTRoot(temporaryWithPrefix: "installtop-bench-observe-repo")
            try repository.publish(recipes)
        } catch {
            return print("  skipped: \(error)")
        }
        defer { repository.remove() }
        let queue = JobQueue(backend: ProcessBackend(), configuration: EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-bench"))
        guard let (server, directory) = DaemonBenchmarks.startServer(queue: queue, backlogLimit: 1 << 20) else { return }
        defer { DaemonBenchmarks.stop(server, directory) }
        var samples: [Setting: [Sample]] = [:]
        // Round 0 warms the page cache and is not counted.
        for round in 0...rounds {
            for setting in Setting.allCases {
                let socket = setting == .engine || setting == .relayTimed ? server.socketPath : directory + "/none.sock"
                guard let sample = once(setting, names: names, repository: repository.repository, installtop: installtop, socket: socket,
                                        scratch: directory) else { return }
                if round > 0 { samples[setting, default: []].append(sample) }
            }
        }
        print("  apt-get install -y of \(count) packages (every 4th with a postinst), fresh private root each run, median of \(rounds);")
        print("  wall ratios are paired (each round runs every setting once, in turn, and divides by that round's no-hooks run):")
        let base = samples[.noHooks] ?? []
        for setting in Setting.allCases where setting != .relayTimed {
            let list = samples[setting] ?? []
            let ratios = zip(list, base).map { $0.wall / $1.wall }
            var line = "    " + setting.name.padding(toLength: 26, withPad: " ", startingAt: 0)
                + String(format: " wall %7.1f ms  apt+dpkg+hooks CPU %7.1f ms", median(list.map(\.wall)) * 1000, median(list.map(\.childCPU)) * 1000)
            if setting != .noHooks { line += String(format: "  wall ratio %.3f× (goal ≤ 1.03×)", median(ratios)) }
            if setting == .engine {
                let own = median(list.map(\.ownCPU))
                line += String(format: "  engine CPU %.1f ms = %.1f %% of apt's and dpkg's", own * 1000, own / median(base.map(\.childCPU)) * 100)
            }
            print(line)
        }
        let relayCPU = median((samples[.relayTimed] ?? []).map(\.relayCPU))
        print(String(format: "    the relays' own CPU (every relay of a run, timed by a wrapper; a run apart, not in the ratios): %.1f ms = %.2f %% of apt's and dpkg's",
                     relayCPU * 1000, relayCPU / median(base.map(\.childCPU)) * 100))
        print("  load after: \(loadAverage())")
    }

    /// One install in a fresh root sharing `repository`; `nil` after saying why when it failed.
    private static func once(_ setting: Setting, names: [String], repository: String, installtop: String, socket: String,
                             scratch: String) -> Sample? {
        let root: PrivateAPTRoot
        do {
            root = try PrivateAPTRoot(temporaryWithPrefix: "installtop-bench-observe", sharing: repository)
            try root.update()
        } catch {
            print("  cannot make a root: \(error)")
            return nil
        }
        defer { root.remove() }
        let timings = scratch + "/relay-cpu"
        try? FileManager.default.removeItem(atPath: timings)
        if setting != .noHooks {
            var relay: [String] = []
            if setting == .relayTimed {
                // A script in the hooks' place that has installtop-bench time the real relay.
                let wrapper = scratch + "/timed-relay"
                let text = "#!/bin/sh\nexec '\(CommandLine.arguments[0])' relay-timing '\(timings)' '\(installtop)-relay' \"$@\"\n"
                guard FileManager.default.createFile(atPath: wrapper, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755]) else {
                    print("  cannot write \(wrapper)")
                    return nil
                }
                relay = ["--relay", wrapper]
            }
            let hooks = spawn([installtop, "hooks", "install", "--apt-config", root.configuration, "--socket", socket] + relay, environment: [:])
            guard hooks.status == 0 else {
                print("  installtop hooks install exited \(hooks.status)")
                return nil
            }
        }
        let ownBefore = cpuSeconds()
        let result = spawn(["/usr/bin/apt-get", "install", "-y"] + names, environment: root.environment)
        let own = cpuSeconds() - ownBefore
        guard result.status == 0 else {
            print("  apt-get install (\(setting.name)) exited \(result.status)")
            return nil
        }
        let relayCPU = ((try? String(contentsOfFile: timings, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Double($0) }.reduce(0, +)
        return Sample(wall: result.wall, childCPU: result.childCPU, ownCPU: own, relayCPU: relayCPU)
    }

    /// Runs `command` with stdin, stdout and stderr on /dev/null and waits.
    private static func spawn(_ command: [String], environment: [String: String]) -> (status: Int32, wall: Double, childCPU: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let before = childrenCPU()
        let started = ContinuousClock.now
        do { try process.run() } catch { return (-1, 0, 0) }
        process.waitUntilExit()
        let wall = ContinuousClock.now - started
        let seconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
        return (process.terminationStatus, seconds, childrenCPU() - before)
    }

    private static func childrenCPU() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_CHILDREN.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
