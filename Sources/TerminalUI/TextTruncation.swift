/// Cutting and padding text to a number of columns, measured with `DisplayWidth`.
public enum TextTruncation {
    /// `text` if it fits in `width` columns; otherwise the longest prefix of whole graphemes
    /// that fits together with `ellipsis`, followed by it. The result may be one column short
    /// of `width` when a wide grapheme did not fit. `width <= 0` gives "". Work stops after
    /// `width + 1` columns, so a long text costs no more than a short one.
    public static func truncate(_ text: String, toWidth width: Int, ellipsis: Character = "…") -> String {
        guard width > 0 else { return "" }
        let ellipsisWidth = DisplayWidth.of(ellipsis)
        let budget = width - ellipsisWidth
        var used = 0
        var cut = text.startIndex
        var index = text.startIndex
        while index != text.endIndex {
            let next = text.index(after: index)
            used += DisplayWidth.of(text[index])
            if used > width {
                return budget < 0 ? "" : String(text[..<cut]) + String(ellipsis)
            }
            if used <= budget { cut = next }
            index = next
        }
        return text
    }

    /// `text` truncated to `width` (see `truncate`) and padded with spaces to exactly `width`
    /// columns, placed by `alignment`.
    public static func fit(
        _ text: String, toWidth width: Int, alignment: TextAlignment = .left, ellipsis: Character = "…"
    ) -> String {
        let truncated = truncate(text, toWidth: width, ellipsis: ellipsis)
        let gap = max(0, width - DisplayWidth.of(truncated))
        switch alignment {
        case .left: return truncated + String(repeating: " ", count: gap)
        case .right: return String(repeating: " ", count: gap) + truncated
        case .center:
            return String(repeating: " ", count: gap / 2) + truncated + String(repeating: " ", count: gap - gap / 2)
        }
    }
}
