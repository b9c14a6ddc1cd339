import Foundation
import InstallDrivers
import InstallEngine
import Synchronization

/// What keeping replaced versions for undo costs an upgrade (issue 35, rule 33): the same
/// 10-package upgrade (1.0 → 2.0, 5 MiB of installed files each) in a fresh private root per
/// run, through installtop's engine, paired in turn: without keeping, with apt's hook waiting
/// for a keeper that keeps nothing (the hook's own cost), keeping with apt's cache
/// holding every 1.0 (hard links), and keeping with an empty cache (every 1.0 rebuilt). Prints
/// medians of the upgrade's wall time (plan excluded: it is the same for all three) and of the
/// keeping itself, and the rebuild's seconds per 100 MB of installed files. Not asserted.
enum APTKeepingBenchmark {
    static let all: [Benchmark] = [Benchmark(name: "apt-keep", run: run)]

    private static let count = 10
    private static let megabytes = 5
    private static let runs = 5

    /// Keeps into `folder` (or, `keeping` false, nothing: what apt's hook alone costs) and
    /// measures how long that took.
    private final class TimedKeeper: APTVersionKeeping {
        let folder: String
        let keeping: Bool
        private let spent = Mutex(Duration.zero)

        init(folder: String, keeping: Bool) {
            self.folder = folder
            self.keeping = keeping
        }

        var time: Duration { spent.withLock { $0 } }

        func keep(_ changes: [PackageChange], environment: APTEnvironment) -> [APTKeptVersion] {
            var kept: [APTKeptVersion] = []
            guard keeping else { return [] }
            let took = ContinuousClock().measure { kept = APTVersionKeeper(environment: environment).keep(changes, into: folder) }
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
        do {
            try PrivateAPTRoot.requireTools()
        } catch {
            print("  skipped: \(error)")
            return
        }
        let names = (0..<count).map { String(format: "keep-%02d", $0) }
        guard let repository = KeepingBenchmarkLab.repository(names, megabytes: megabytes, prefix: "installtop-bench-keep-repo") else { return }
        defer { repository.remove() }
        print("  \(count) packages of \(megabytes) MiB installed files each, 1.0 → 2.0, \(runs) runs each, in turn")
        var walls: [Mode: [Duration]] = [:]
        var keeps: [Mode: [Duration]] = [:]
        for _ in 0..<runs {
            for mode in Mode.allCases {
                guard let (wall, keep) = await upgrade(names, repository: repository.repository, mode: mode) else { return }
                walls[mode, default: []].append(wall)
                keeps[mode, default: []].append(keep)
            }
        }
        let base = median(walls[.none] ?? [])
        for mode in Mode.allCases {
            let wall = median(walls[mode] ?? [])
            var line = "  \(mode.rawValue): upgrade \(seconds(wall)) s (\(String(format: "%.3f", wall / base))×)"
            if mode == .cache || mode == .rebuild { line += ", of which keeping \(seconds(median(keeps[mode] ?? []))) s" }
            print(line)
        }
        let rebuild = median(keeps[.rebuild] ?? [])
        let installedMB = Double(count * megabytes) * 1.048576
        print("  rebuilding: \(String(format: "%.2f", value(rebuild) * 100 / installedMB)) s per 100 MB of installed files")
    }

    /// One upgrade in a fresh root with 1.0 installed; the wall time from the job's submission to
    /// its end, and the keeper's own time.
    private static func upgrade(_ names: [String], repository: String, mode: Mode) async -> (Duration, Duration)? {
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
        return (wall, keeper?.time ?? .zero)
    }

    private static func value(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.3f", value(duration))
    }
}
