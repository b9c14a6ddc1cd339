extension String {
    /// The text with spaces after it up to `width` characters; text already as wide or wider
    /// is returned whole (never cut, unlike Foundation's `padding(toLength:…)`).
    public func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
