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
    /// Where rows come from.
    let source: HistorySource
    /// Median seconds of the past successful runs, by update id.
    let medianDurations: [String: TimeInterval]

    /// Without a store: the view shows `reason`, ETAs come from live progress only.
    public static func off(_ reason: String) -> MonitorHistory {
        MonitorHistory(source: .off(reason), medianDurations: [:])
    }

    /// Rows from `store`, and its median durations for `updateIDs` (each id once). At the first
    /// id the store cannot answer for, `onError` gets the error and the medians read so far are
    /// kept: the view may still work.
    public init(store: HistoryStore, updateIDs: some Sequence<String>, onError: (HistoryError) -> Void) {
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
        self.init(source: .store(store), medianDurations: medians)
    }

    private init(source: HistorySource, medianDurations: [String: TimeInterval]) {
        self.source = source
        self.medianDurations = medianDurations
    }

    /// The answer to the monitor's `.loadHistory(limit:)`: the newest `limit` rows, or why
    /// there are none (history off, or the store's error).
    func load(limit: Int) -> MonitorEvent {
        switch source {
        case .off(let reason):
            return .historyUnavailable(reason)
        case .store(let store):
            do {
                return .historyLoaded(try store.entries(limit: limit).map(HistoryRow.init(entry:)))
            } catch {
                return .historyUnavailable("history could not be read: \(error)")
            }
        }
    }
}
