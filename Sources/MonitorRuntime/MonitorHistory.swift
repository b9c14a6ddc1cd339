#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallHistory
import Monitor

/// What the monitor knows of the install history: where its `h` view reads rows from (or why
/// it cannot) and the median durations its ETAs start from.
public struct MonitorHistory: Sendable {
    /// The answer to the monitor's `.loadHistory(limit:)`: the newest `limit` rows, or why
    /// there are none. It reads the disk, so it runs off the monitor's thread (`LocalEngineLink`).
    let load: @Sendable (_ limit: Int) -> MonitorEvent
    /// The answer to `.loadJobRuns(limit:)`: `.jobRunsLoaded` or `.jobRunsUnavailable`. Reads the
    /// disk too, off the monitor's thread.
    let loadRuns: @Sendable (_ limit: Int) -> MonitorEvent
    /// Median seconds of the past successful runs, by update id.
    let medianDurations: [String: TimeInterval]

    /// Without a store: the view shows `reason`, ETAs come from live progress only.
    public static func off(_ reason: String) -> MonitorHistory {
        MonitorHistory(medianDurations: [:], load: { _ in .historyUnavailable(reason) }, loadRuns: { _ in .jobRunsUnavailable(reason) })
    }

    /// Rows from `store`, and its median durations for `updateIDs` (each id once). At the first
    /// id the store cannot answer for, `onError` gets the error and the medians read so far are
    /// kept: the view may still work. `halfWay` says what dpkg has half-way in a database, for
    /// the runs' undoability (`HistoryStore.jobRuns`).
    public init(store: HistoryStore, updateIDs: some Sequence<String>,
                halfWay: @escaping @Sendable (_ administrativeDirectory: String) -> [String: HalfWayPackage] = { _ in [:] },
                onError: (HistoryError) -> Void) {
        var medians: [String: TimeInterval] = [:]
        var seen = Set<String>()
        do throws(HistoryError) {
            for id in updateIDs where seen.insert(id).inserted {
                if let median = try store.medianDuration(updateID: id) {
                    medians[id] = Double(median.components.seconds) + Double(median.components.attoseconds) / 1e18
                }
            }
        } catch {
            onError(error)
        }
        self.init(medianDurations: medians, load: { limit in
            do {
                return .historyLoaded(try store.entries(limit: limit).map(HistoryRow.init(entry:)))
            } catch {
                return .historyUnavailable("history could not be read: \(error)")
            }
        }, loadRuns: { limit in
            do {
                return .jobRunsLoaded(try store.jobRuns(limit: limit, halfWay: halfWay).map(JobRunRow.init(run:)))
            } catch {
                return .jobRunsUnavailable("history could not be read: \(error)")
            }
        })
    }

    /// Rows from `load` (`.historyLoaded` or `.historyUnavailable`) and runs from `loadRuns`
    /// (`.jobRunsLoaded` or `.jobRunsUnavailable`), which may take as long as they like: the
    /// monitor shows "loading…" meanwhile. For tests and other sources than a store.
    public init(medianDurations: [String: TimeInterval] = [:], load: @escaping @Sendable (_ limit: Int) -> MonitorEvent,
                loadRuns: @escaping @Sendable (_ limit: Int) -> MonitorEvent = { _ in .jobRunsUnavailable("no job runs here") }) {
        self.load = load
        self.loadRuns = loadRuns
        self.medianDurations = medianDurations
    }
}
