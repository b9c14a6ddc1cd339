extension StringProtocol {
    /// Without leading and trailing spaces, tabs and newlines.
    func trimmingWhitespace() -> String {
        let isSpace = { (character: Character) in character == " " || character == "\t" || character == "\n" || character == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
