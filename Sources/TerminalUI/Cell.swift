/// One cell of a `Buffer`: a grapheme and its style.
///
/// A double-width grapheme occupies two cells: the first holds the grapheme (`width == 2`), the
/// second is a continuation cell (`width == 0`) that a terminal adapter skips.
///
/// The grapheme is stored inline as up to `maxScalars` scalars, so a cell is a plain value that
/// copies without reference counting (buffers are rebuilt every frame). Scalars beyond that
/// (long runs of combining marks) are dropped; curses keeps even fewer per cell.
public struct Cell: Sendable, Hashable {
    /// How many scalars of a grapheme a cell keeps.
    public static let maxScalars = 6

    /// Up to 6 scalars of 21 bits: scalars 0–2 in `low`, 3–5 in `high`; 0 marks the end
    /// (U+0000 never reaches a cell).
    private var low: UInt64
    private var high: UInt64
    /// Colours and attributes of the cell.
    public var style: Style
    /// Columns the grapheme takes: 1 or 2, or 0 for the continuation half of a wide grapheme.
    public var width: UInt8

    /// A blank cell in the default style.
    public static let blank = Cell(style: .plain)

    /// A cell holding `character` (its first `maxScalars` scalars; a space if it has none).
    public init(character: Character, style: Style, width: UInt8) {
        self.init(scalars: character.unicodeScalars, style: style, width: width)
    }

    /// A cell holding the first `maxScalars` scalars of one grapheme (a space if none).
    init(scalars: some Sequence<Unicode.Scalar>, style: Style, width: UInt8) {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var count = 0
        for scalar in scalars where scalar.value != 0 {
            let bits = UInt64(scalar.value) << UInt64(21 * (count % 3))
            if count < 3 { low |= bits } else { high |= bits }
            count += 1
            if count == Cell.maxScalars { break }
        }
        self.low = count == 0 ? 0x20 : low
        self.high = high
        self.style = style
        self.width = width
    }

    /// A one-column cell holding a printable ASCII byte (0x20–0x7E; not checked).
    init(asciiByte: UInt8, style: Style) {
        low = UInt64(asciiByte)
        high = 0
        self.style = style
        width = 1
    }

    /// A blank cell with the given style.
    public init(style: Style) {
        self.init(asciiByte: 0x20, style: style)
    }

    /// The continuation half of a wide grapheme, carrying the grapheme's style.
    public static func continuation(style: Style) -> Cell {
        var cell = Cell(style: style)
        cell.width = 0
        return cell
    }

    // MARK: - Reading

    /// True for the second cell of a double-width grapheme.
    public var isContinuation: Bool { width == 0 }

    /// How many scalars the grapheme has (1…`maxScalars`).
    public var scalarCount: Int {
        var count = 0
        while count < Cell.maxScalars, scalarValue(at: count) != 0 {
            count += 1
        }
        return count
    }

    /// Scalar `index` (0-based) of the grapheme. - Precondition: `index < scalarCount`.
    public func scalar(at index: Int) -> Unicode.Scalar {
        Unicode.Scalar(scalarValue(at: index)) ?? "\u{FFFD}"
    }

    /// The grapheme's only scalar when it is a single printable ASCII character, else `nil`:
    /// the fast path for adapters.
    public var asciiValue: UInt8? {
        low < 0x7F && low >= 0x20 && high == 0 ? UInt8(low) : nil
    }

    /// What the cell shows; a space for blank and continuation cells.
    public var character: Character {
        if let ascii = asciiValue { return Character(Unicode.Scalar(ascii)) }
        var text = String.UnicodeScalarView()
        for index in 0..<scalarCount {
            text.append(scalar(at: index))
        }
        return String(text).first ?? " "
    }

    /// Appends the grapheme to `text` without building a `Character`.
    func append(to text: inout String) {
        if let ascii = asciiValue {
            text.unicodeScalars.append(Unicode.Scalar(ascii))
            return
        }
        for index in 0..<scalarCount {
            text.unicodeScalars.append(scalar(at: index))
        }
    }

    private func scalarValue(at index: Int) -> UInt32 {
        let word = index < 3 ? low : high
        return UInt32(truncatingIfNeeded: word >> UInt64(21 * (index % 3))) & 0x1F_FFFF
    }
}
