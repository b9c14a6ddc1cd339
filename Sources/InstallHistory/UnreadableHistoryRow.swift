/// A row of the history this installtop cannot read: a number or name a newer one wrote, or
/// a NULL where the schema allows none. Reported, never guessed.
struct UnreadableHistoryRow: Error, CustomStringConvertible {
    /// The column that could not be read.
    var column: String
    /// What was wrong with it (`unknown operation 7`).
    var problem: String

    var description: String { "column \(column): \(problem)" }
}
