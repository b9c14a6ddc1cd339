import InstallEngine
import InstallHistory

/// Connects a queue to the install history: recovers rows left by dead writers, then records
/// every event. Used by `run` and `serve`, the processes that own an engine.
enum HistoryAttachment {
    /// Records `queue`'s events in the store at `path` (the default store when `nil`); returns
    /// the store, or why there is no history (after adding a warning).
    static func attach(to queue: JobQueue, path: String?, warnings: Warnings) -> MonitorHistory.Source {
        let store: HistoryStore
        do {
            store = try HistoryStore(path: path ?? HistoryStore.defaultPath())
            try store.recoverInterruptedEntries()
            let recorder = HistoryRecorder(store: store)
            queue.subscribe { event in
                do { try recorder.record(event) } catch { warnings.add("history not recorded: \(error)") }
            }
        } catch {
            warnings.add("running without history: \(error)")
            return .off("history is unavailable: \(error)")
        }
        return .store(store)
    }
}
