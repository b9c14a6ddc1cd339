#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import TextBasics

/// Deletes versions kept for undo by age and total size (Documentation/UNDO.md, rule 33), a run's
/// whole folder at a time (a run missing one kept version cannot be undone anyway): first every
/// run older than `maxAge`, then the oldest runs until what is left takes at most
/// `maxTotalBytes`. The history keeps each pruned row, marked with its date, so `history
/// --jobs` says why the run can no longer be undone.
public struct UndoPruning: Sendable, Hashable {
    /// 90 days: a quarter's patch nights can be undone.
    public static let defaultMaxAge: TimeInterval = 90 * 24 * 3600
    /// 2 GiB: a few months of a server's upgrades (hard links from apt's cache count in full,
    /// though they share their blocks with the cache until apt cleans it).
    public static let defaultMaxTotalBytes: Int64 = 2 << 30

    public var maxAge: TimeInterval
    public var maxTotalBytes: Int64

    public init(maxAge: TimeInterval = defaultMaxAge, maxTotalBytes: Int64 = defaultMaxTotalBytes) {
        self.maxAge = maxAge
        self.maxTotalBytes = maxTotalBytes
    }

    /// Which of `kept` (oldest run first, with each run's start) to prune at `now`.
    public func choose(_ kept: [(record: KeptVersionRecord, runStartedAt: Date?)], now: Date) -> [KeptVersionRecord] {
        let limit = now.addingTimeInterval(-maxAge)
        var chosen = Set<Int64>()
        for (record, started) in kept where (started ?? .distantPast) < limit { chosen.insert(record.jobRun) }
        var total = kept.filter { !chosen.contains($0.record.jobRun) }.reduce(Int64(0)) { $0 + ($1.record.sizeBytes ?? 0) }
        var runs: [Int64] = []
        for (record, _) in kept where !chosen.contains(record.jobRun) && runs.last != record.jobRun { runs.append(record.jobRun) }
        for run in runs where total > maxTotalBytes {
            chosen.insert(run)
            total -= kept.filter { $0.record.jobRun == run }.reduce(Int64(0)) { $0 + ($1.record.sizeBytes ?? 0) }
        }
        return kept.map(\.record).filter { chosen.contains($0.jobRun) }
    }

    /// Prunes `store`'s kept versions at `now`: deletes the chosen files (and their run's
    /// folder once empty) and marks their rows. Returns the rows pruned. A file already gone
    /// counts as pruned.
    @discardableResult
    public func prune(_ store: HistoryStore, now: Date = Date()) throws(HistoryError) -> [KeptVersionRecord] {
        let chosen = choose(try store.unprunedKeptVersions(), now: now)
        for record in chosen {
            guard let file = record.file else { continue }
            try? FileManager.default.removeItem(atPath: file)
            // rmdir removes only an empty folder: a run's last kept file takes its folder along.
            rmdir(PathText.parent(of: file))
        }
        try store.markPruned(chosen.compactMap(\.id), at: now)
        return chosen
    }
}
