import InstallHistory
import Monitor

extension HistoryRow {
    /// The fields of `entry` the history view shows.
    init(entry: HistoryEntry) {
        self.init(
            date: entry.startedAt ?? entry.endedAt, resultCode: entry.resultCode, updateID: entry.updateID,
            title: entry.title, jobName: entry.jobName, duration: entry.duration, reason: entry.reason)
    }
}
