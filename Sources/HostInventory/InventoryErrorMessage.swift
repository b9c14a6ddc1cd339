/// A problem found below the level that knows the file and line: the parsers turn it into an
/// `InventoryError` saying where.
struct InventoryErrorMessage: Error {
    var text: String

    init(_ text: String) {
        self.text = text
    }
}
