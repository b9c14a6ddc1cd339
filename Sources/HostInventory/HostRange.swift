/// Ansible's host ranges in inventories: `web[1:3]` is web1, web2, web3; `db-[01:10:2]`
/// keeps the leading zeros and steps by 2; `[a:c]` runs through letters.
enum HostRange {
    /// The names `pattern` stands for: itself when it has no range.
    /// - Throws: a message when the range cannot be read (`web[3:1]`, `web[1:x]`).
    static func expand(_ pattern: String) throws(InventoryErrorMessage) -> [String] {
        guard let open = pattern.firstIndex(of: "["), let close = pattern[open...].firstIndex(of: "]") else { return [pattern] }
        let head = String(pattern[..<open])
        let tail = String(pattern[pattern.index(after: close)...])
        let parts = pattern[pattern.index(after: open)..<close].split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 || parts.count == 3 else { throw InventoryErrorMessage("\(pattern): a range is [start:end] or [start:end:step]") }
        let step = parts.count == 3 ? Int(parts[2]) : 1
        guard let step, step > 0 else { throw InventoryErrorMessage("\(pattern): the step of a range is a whole number above 0") }
        var items: [String] = []
        if let first = Int(parts[0]), let last = Int(parts[1]) {
            guard first <= last else { throw InventoryErrorMessage("\(pattern): the range ends before it starts") }
            // `[01:10]`: as wide as the start is written.
            let width = parts[0].hasPrefix("0") ? parts[0].count : 0
            for number in stride(from: first, through: last, by: step) {
                let digits = String(number)
                items.append(String(repeating: "0", count: max(0, width - digits.count)) + digits)
            }
        } else if parts[0].count == 1, parts[1].count == 1, let first = parts[0].unicodeScalars.first, let last = parts[1].unicodeScalars.first,
                  first.properties.isAlphabetic, last.properties.isAlphabetic {
            guard first.value <= last.value else { throw InventoryErrorMessage("\(pattern): the range ends before it starts") }
            for value in stride(from: first.value, through: last.value, by: step) {
                if let scalar = Unicode.Scalar(value) { items.append(String(Character(scalar))) }
            }
        } else {
            throw InventoryErrorMessage("\(pattern): a range runs between two numbers or two letters")
        }
        var names: [String] = []
        for item in items { names += try expand(head + item + tail).map { $0 } }
        return names
    }
}
