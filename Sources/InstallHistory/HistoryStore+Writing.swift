import GRDB

// MARK: - Writing rows (each one small transaction)

extension HistoryStore {
    /// Inserts `entry` and returns it with its new id.
    func insert(_ entry: HistoryEntry) throws(HistoryError) -> HistoryEntry {
        try write("write to") { db in
            var entry = entry
            try entry.insert(db)
            return entry
        }
    }

    /// Overwrites the row of `entry.id` with `entry`, or inserts it when there is no such row
    /// (or no id): the final result wins even if the running row could not be written.
    func save(_ entry: HistoryEntry) throws(HistoryError) -> HistoryEntry {
        try write("write to") { db in
            var entry = entry
            try entry.save(db)
            return entry
        }
    }
}
