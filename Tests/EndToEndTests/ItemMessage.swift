/// installtop's status for one item of a loop, `item 3/50: label`, read back.
struct ItemMessage {
    let index: Int
    let total: Int
    let label: String

    /// Nil for a message that is no item's.
    init?(_ message: String) {
        guard message.hasPrefix("item "), let colon = message.range(of: ": ") else { return nil }
        let numbers = message[message.index(message.startIndex, offsetBy: 5)..<colon.lowerBound].split(separator: "/")
        guard numbers.count == 2, let index = Int(numbers[0]), let total = Int(numbers[1]), index >= 1 else { return nil }
        self.index = index
        self.total = total
        label = String(message[colon.upperBound...])
    }
}
