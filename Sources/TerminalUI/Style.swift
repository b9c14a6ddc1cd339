/// How a cell looks: colours and attributes. A value type; `.plain` is the terminal's default.
///
/// Stored as three integers so that buffers compare and copy cheaply.
public struct Style: Sendable, Hashable {
    private var foregroundCode: UInt32
    private var backgroundCode: UInt32
    private var attributes: UInt8

    private static let boldBit: UInt8 = 1
    private static let dimBit: UInt8 = 2
    private static let reverseBit: UInt8 = 4
    private static let underlineBit: UInt8 = 8

    /// The terminal's default colours, no attributes.
    public static let plain = Style()

    /// A style; everything defaults to the terminal's default look.
    public init(
        foreground: Color = .default,
        background: Color = .default,
        bold: Bool = false,
        dim: Bool = false,
        reverse: Bool = false,
        underline: Bool = false
    ) {
        foregroundCode = foreground.code
        backgroundCode = background.code
        attributes = (bold ? Style.boldBit : 0) | (dim ? Style.dimBit : 0) | (reverse ? Style.reverseBit : 0)
            | (underline ? Style.underlineBit : 0)
    }

    // MARK: - Properties

    /// Text colour; `.default` leaves the terminal's.
    public var foreground: Color {
        get { Color(code: foregroundCode) }
        set { foregroundCode = newValue.code }
    }

    /// Cell colour; `.default` leaves the terminal's.
    public var background: Color {
        get { Color(code: backgroundCode) }
        set { backgroundCode = newValue.code }
    }

    /// Bold (often also brighter).
    public var bold: Bool {
        get { attributes & Style.boldBit != 0 }
        set { setAttribute(Style.boldBit, newValue) }
    }

    /// Faint; ignored by terminals without it.
    public var dim: Bool {
        get { attributes & Style.dimBit != 0 }
        set { setAttribute(Style.dimBit, newValue) }
    }

    /// Foreground and background swapped: visible even without colours.
    public var reverse: Bool {
        get { attributes & Style.reverseBit != 0 }
        set { setAttribute(Style.reverseBit, newValue) }
    }

    /// Underlined.
    public var underline: Bool {
        get { attributes & Style.underlineBit != 0 }
        set { setAttribute(Style.underlineBit, newValue) }
    }

    private mutating func setAttribute(_ bit: UInt8, _ on: Bool) {
        attributes = on ? attributes | bit : attributes & ~bit
    }

    // MARK: - Combining

    /// This style with `top` laid over it: each colour of `top` that is not `.default` wins, and
    /// attributes are the union of both. Overlaying `.plain` changes nothing.
    public func overlaid(by top: Style) -> Style {
        var result = self
        if top.foregroundCode != 0 { result.foregroundCode = top.foregroundCode }
        if top.backgroundCode != 0 { result.backgroundCode = top.backgroundCode }
        result.attributes |= top.attributes
        return result
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
