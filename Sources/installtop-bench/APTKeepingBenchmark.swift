import Foundation
import InstallDrivers
import InstallEngine
import Synchronization

/// What keeping replaced versions for undo costs an upgrade (issue 35, rule 33): the same
/// 10-package upgrade (1.0 → 2.0, 5 MiB of installed files each, with md5sums as real packages
/// have) in a fresh private root per run, through installtop's engine, paired in turn: without
/// keeping, with apt's hook waiting for a keeper that keeps nothing (the hook's own cost),
/// keeping with apt's cache holding every 1.0 (hard links), and keeping with an empty cache
/// (every 1.0 rebuilt), each kept ahead of apt's hook from the plan as installtop's history
/// does. Prints medians of the upgrade's wall time (plan excluded: it is the same for all), of
/// the keeping alone (timed before the upgrade, into a scratch folder) and of what dpkg waited
/// for it at the hook, and the rebuild's seconds per 100 MB of installed files. Not asserted.
enum APTKeepingBenchmark {
    static let all: [Benchmark] = [Benchmark(name: "apt-keep", run: run)]

    private static let count = 10
    private static let megabytes = 5
    private static let runs = 5

    /// Keeps into `folder` as installtop's history does, ahead of apt's hook from the job's plan
    /// (or, `keeping` false, nothing: what apt's hook alone costs), and measures how long dpkg
    /// waited for it at the hook.
    private final class TimedKeeper: APTVersionKeeping {
        let folder: String
        let keeping: Bool
        private let spent = Mutex(Duration.zero)
        private let ahead = APTKeepingAheadSlot()

        init(folder: String, keeping: Bool) {
            self.folder = folder
            self.keeping = keeping
        }

        var time: Duration { spent.withLock { $0 } }

        func keepAhead(_ planned: [PackageChange], environment: APTEnvironment) {
            guard keeping else { return }
            ahead.start(planned, environment: environment, into: folder)
        }

        func discardAhead() {
            ahead.discard()
        }

        func keep(_ changes: [PackageChange], environment: APTEnvironment) -> [APTKeptVersion] {
            var kept: [APTKeptVersion] = []
            guard keeping else { return [] }
            let took = ContinuousClock().measure { kept = ahead.keep(changes, environment: environment, into: folder) }
            spent.withLock { $0 += took }
            return kept
        }
    }

    private enum Mode: String, CaseIterable {
        case none = "no keeping"
        case hook = "apt's hook waiting for a keeper that keeps nothing"
        case cache = "keeping, apt's cache holds 1.0"
        case rebuild = "keeping, every 1.0 rebuilt"
    }

    static func run() async {
        let names = (0..<count).map { String(format: "keep-%02d", $0) }
        guard let repository = KeepingBenchmarkLab.repository(names, megabytes: megabytes, prefix: "installtop-bench-keep-repo") else { return }
        defer { repository.remove() }
        print("  \(count) packages of \(megabytes) MiB installed files each, 1.0 → 2.0, \(runs) runs each, in turn")
        var walls: [Mode: [Duration]] = [:]
        var keeps: [Mode: [Duration]] = [:]
        var alone: [Mode: [Duration]] = [:]
        for _ in 0..<runs {
            for mode in Mode.allCases {
                guard let (wall, keep, keepingAlone) = await upgrade(names, repository: repository.repository, mode: mode) else { return }
                walls[mode, default: []].append(wall)
                keeps[mode, default: []].append(keep)
                alone[mode, default: []].append(keepingAlone)
            }
        }
        let base = median(walls[.none] ?? [])
        for mode in Mode.allCases {
            let wall = median(walls[mode] ?? [])
            var line = "  \(mode.rawValue): upgrade \(seconds(wall)) s (\(String(format: "%.3f", wall / base))×)"
            if mode == .cache || mode == .rebuild {
                line += "; the keeping alone \(seconds(median(alone[mode] ?? []))) s, of which dpkg waited \(seconds(median(keeps[mode] ?? []))) s"
            }
            print(line)
        }
        let rebuild = median(alone[.rebuild] ?? [])
        let installedMB = Double(count * megabytes) * 1.048576
        print("  rebuilding: \(String(format: "%.2f", value(rebuild) * 100 / installedMB)) s per 100 MB of installed files")
    }

    /// One upgrade in a fresh root with 1.0 installed; the wall time from the job's submission to
    /// its end, how long dpkg waited at apt's hook for the keeping, and (measured before, into a
    /// scratch folder) how long the same keeping takes alone.
    private static func upgrade(_ names: [String], repository: String, mode: Mode) async -> (Duration, Duration, Duration)? {
        guard let root = KeepingBenchmarkLab.rootAtVersionOne(names, repository: repository, prefix: "installtop-bench-keep", cachingOriginals: mode == .cache) else {
            return nil
        }
        defer { root.remove() }
        let plan: APTPlan
        do {
            plan = try APTPlanner.plan(PackageJob(request: .upgrade, aptConfig: root.configuration))
        } catch {
            print("  the plan failed: \(error)")
            return nil
        }
        var alone = Duration.zero
        if mode == .cache || mode == .rebuild {
            let scratch = root.folder + "/undo-alone"
            alone = ContinuousClock().measure { _ = APTVersionKeeper(environment: plan.environment).keep(plan.changes, into: scratch) }
            try? FileManager.default.removeItem(atPath: scratch)
        }
        let keeper = mode == .none ? nil : TimedKeeper(folder: root.folder + "/undo/1", keeping: mode != .hook)
        let queue = JobQueue(backend: ProcessBackend(), configuration: EngineConfiguration(rebootMarkerPath: "/nonexistent/installtop-bench"))
        let clock = ContinuousClock()
        let started = clock.now
        do {
            try queue.submit(name: "bench", operation: .install, updates: plan.updates, driver: APTDriver(plan: plan, keeper: keeper))
        } catch {
            print("  the job was refused: \(error)")
            return nil
        }
        await queue.waitUntilIdle()
        let wall = clock.now - started
        let upgraded = APTPackageState.query(administrativeDirectory: root.root + "/var/lib/dpkg").values.filter { $0.version == "2.0" }.count
        guard upgraded == names.count else {
            print("  \(mode.rawValue): \(upgraded) of \(names.count) upgraded")
            return nil
        }
        return (wall, keeper?.time ?? .zero, alone)
    }

    private static func value(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.3f", value(duration))
    }
}
