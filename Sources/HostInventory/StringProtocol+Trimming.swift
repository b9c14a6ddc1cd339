extension StringProtocol {
    /// The text without whitespace (newlines and carriage returns included) at either end.
    var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
