extension StringProtocol {
    /// The text without whitespace at either end, newlines and carriage returns included
    /// (what Foundation's `.whitespacesAndNewlines` trims). Empty when it is all whitespace.
    public var trimmingWhitespace: String {
        trimming { $0.isWhitespace }
    }

    /// The text without spaces and tabs at either end; newlines stay (what Foundation's
    /// `.whitespaces` trims).
    public var trimmingSpaces: String {
        trimming { $0.isWhitespace && !$0.isNewline }
    }

    /// The text without newlines at either end (what Foundation's `.newlines` trims).
    public var trimmingNewlines: String {
        trimming(\.isNewline)
    }

    private func trimming(_ isTrimmed: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[first...last])
    }
}
