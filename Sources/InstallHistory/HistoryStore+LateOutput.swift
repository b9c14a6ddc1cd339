import SQLiteStore

// MARK: - Output after an update's result

extension HistoryStore {
    /// Appends `lines` to the output tail of the row `id`, keeping the tail's bounds (the last
    /// 200 lines, each cut to 4 KiB), in one transaction: output a driver reported about an
    /// update after its result (apt retrying a failed configure at its end, a repair after the
    /// last package). A missing row is left missing.
    func appendOutput(_ lines: [String], toRow id: Int64) throws(HistoryError) {
        guard !lines.isEmpty else { return }
        let table = HistoryEntry.databaseTableName
        try write("write to") { db in
            guard let text = try db.fetchValue(String.self, sql: "SELECT outputTail FROM \(table) WHERE id = ?", arguments: [id]) else { return }
            var tail = HistoryOutputTail()
            if !text.isEmpty {
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) { tail.append(String(line)) }
            }
            for line in lines { tail.append(line) }
            try db.execute(sql: "UPDATE \(table) SET outputTail = ? WHERE id = ?", arguments: [tail.text, id])
        }
    }
}
