#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Synchronization
import TextBasics
import Dispatch
import Glibc

/// Keeping that starts as apt does, from the job's simulated plan, instead of at apt's hook
/// (rule 33): apt spends its first second or so reading its cache, resolving and fetching, and
/// the installed versions stay untouched until dpkg's first run, so the keeping runs beside
/// that and the hook waits only for what is left. Without it dpkg waited for all of it.
///
/// At the hook apt's own plan decides: a package kept ahead at the version the hook says is
/// replaced is taken as kept; one the hook replaces at another version, or that the simulation
/// did not plan, is kept then; one kept ahead that the hook does not replace is deleted.
public final class APTKeepingAhead: Sendable {
    private let keeper: APTVersionKeeper
    private let folder: String
    /// The files `folder` held before: an earlier transaction's of the same run (a retry's),
    /// recorded for it, which nothing here deletes.
    private let earlier: Set<String>
    private let results = Mutex<[APTKeptVersion]?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts keeping what `planned` replaces into `folder`, on a thread of its own, and returns
    /// at once.
    public init(_ planned: [PackageChange], keeper: APTVersionKeeper, into folder: String) {
        self.keeper = keeper
        self.folder = folder
        earlier = Set((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
        EngineThread.detach(named: "installtop-keep-ahead") { [self] in
            let kept = keeper.keep(planned, into: folder)
            results.withLock { $0 = kept }
            done.signal()
        }
    }

    /// Waits for the keeping started ahead, then keeps whatever of `changes` (apt's plan from
    /// its hook) it did not; one result per package `changes` replaces, in `changes`' order, as
    /// `APTVersionKeeper.keep` gives them.
    public func finish(_ changes: [PackageChange]) -> [APTKeptVersion] {
        let ahead = waitForAhead()
        let replacing = changes.filter(APTVersionKeeper.replacesInstalledVersion)
        func key(_ package: String, _ version: String) -> String { package + "\u{0}" + version }
        var byKey = Dictionary(ahead.map { (key($0.package, $0.version), $0) }, uniquingKeysWith: { first, _ in first })
        var results: [APTKeptVersion?] = replacing.map { change in byKey.removeValue(forKey: key(change.package, change.oldVersion ?? "")) }
        let missing = replacing.indices.filter { results[$0] == nil }
        if !missing.isEmpty {
            let late = keeper.keep(missing.map { replacing[$0] }, into: folder)
            for (index, kept) in zip(missing, late) { results[index] = kept }
        }
        delete(Array(byKey.values))
        return results.compactMap { $0 }
    }

    /// apt ended or stopped before its hook, so nothing was replaced: deletes what was kept
    /// ahead once its keeping ends, on a thread of its own (the caller may be the poller's).
    public func discard() {
        EngineThread.detach(named: "installtop-keep") { [self] in
            delete(waitForAhead())
            rmdir(folder)
        }
    }

    private func waitForAhead() -> [APTKeptVersion] {
        done.wait()
        done.signal()
        return results.withLock { $0 } ?? []
    }

    private func delete(_ kept: [APTKeptVersion]) {
        for each in kept {
            guard case .kept(let file, _, _) = each.outcome, !earlier.contains(PathText.lastComponent(of: file)) else { continue }
            try? FileManager.default.removeItem(atPath: file)
        }
    }
}
