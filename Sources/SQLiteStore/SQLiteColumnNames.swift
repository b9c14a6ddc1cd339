/// A result's column names and where each is, shared by the rows of one fetch.
///
/// Names are found without regard to ASCII case, as SQLite resolves them; when two columns share
/// a name (a join's `id`s), the leftmost wins.
final class SQLiteColumnNames: Sendable {
    let names: [String]
    private let indexByName: [String: Int]

    init(_ names: [String]) {
        self.names = names
        var indexByName: [String: Int] = [:]
        for (index, name) in names.enumerated() where indexByName[name.lowercased()] == nil {
            indexByName[name.lowercased()] = index
        }
        self.indexByName = indexByName
    }

    /// Where the column `name` is; `nil` when the result has none.
    func index(of name: String) -> Int? {
        if let index = names.firstIndex(of: name) { return index }
        return indexByName[name.lowercased()]
    }
}
