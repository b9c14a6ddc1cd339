/// How a cell looks: colours and attributes. A value type; `.plain` is the terminal's default.
public struct Style: Sendable, Hashable {
    public var foreground: Color
    public var background: Color
    public var bold: Bool
    public var dim: Bool
    public var reverse: Bool
    public var underline: Bool

    /// The terminal's default colours, no attributes.
    public static let plain = Style()

    public init(
        foreground: Color = .default,
        background: Color = .default,
        bold: Bool = false,
        dim: Bool = false,
        reverse: Bool = false,
        underline: Bool = false
    ) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.dim = dim
        self.reverse = reverse
        self.underline = underline
    }

    // MARK: - Combining

    /// This style with `top` laid over it: each colour of `top` that is not `.default` wins, and
    /// attributes are the union of both. Overlaying `.plain` changes nothing.
    public func overlaid(by top: Style) -> Style {
        Style(
            foreground: top.foreground == .default ? foreground : top.foreground,
            background: top.background == .default ? background : top.background,
            bold: bold || top.bold,
            dim: dim || top.dim,
            reverse: reverse || top.reverse,
            underline: underline || top.underline
        )
    }

    /// Both colours approximated for the terminal (see `Color.approximated(for:)`). On an
    /// 8-colour terminal a bright foreground becomes its normal colour plus bold, which most such
    /// terminals show brighter. Attributes are kept on every terminal.
    public func approximated(for capability: ColorCapability) -> Style {
        var result = self
        result.foreground = foreground.approximated(for: capability)
        result.background = background.approximated(for: capability)
        if capability == .basic8, let index = foreground.paletteIndex, (8..<16).contains(index) {
            result.bold = true
        }
        return result
    }
}
