/// A widget: a horizontal progress bar filling its area's first row.
///
/// Determinate bars have eighth-cell resolution with the Unicode glyph set (`▏▎▍▌▋▊▉█`) and
/// whole cells with ASCII (`#`, `-`); filled cells use `doneStyle`, the rest `todoStyle`, and a
/// partly filled cell shows the done colour over the todo background. The fill is rounded down,
/// so a bar looks full only at 100 %. Indeterminate bars show a 3-cell block that moves with
/// the `phase` the caller passes (a tick counter), bouncing between the ends.
public struct ProgressBar: Sendable, Hashable {
    /// What the bar shows.
    public enum Mode: Sendable, Hashable {
        /// Done fraction 0…1; values outside are clamped and NaN counts as 0.
        case fraction(Double)
        /// No known progress: the block's position for this tick counter (any integer).
        case indeterminate(phase: Int)
    }

    /// Fraction or indeterminate phase.
    public var mode: Mode
    /// Style of the filled cells (and the foreground of a partly filled one).
    public var doneStyle: Style
    /// Style of the unfilled cells (and the background of a partly filled one).
    public var todoStyle: Style
    /// Eighth blocks (`.unicode`) or `#`/`-` (`.ascii`).
    public var glyphs: GlyphSet

    /// A bar; with the default plain styles only the glyphs show progress.
    public init(_ mode: Mode, doneStyle: Style = .plain, todoStyle: Style = .plain, glyphs: GlyphSet = .unicode) {
        self.mode = mode
        self.doneStyle = doneStyle
        self.todoStyle = todoStyle
        self.glyphs = glyphs
    }

    /// Draws into the first row of `area` (nothing if it is empty).
    public func render(into buffer: inout Buffer, area: Rect) {
        let row = area.row(0)
        guard !row.isEmpty else { return }
        buffer.fill(row, with: glyphs.barEmpty, style: todoStyle)
        switch mode {
        case .fraction(let fraction):
            renderFraction(fraction, into: &buffer, row: row)
        case .indeterminate(let phase):
            let block = min(3, row.width)
            let start = ProgressBar.blockStart(phase: phase, width: row.width, blockWidth: block)
            buffer.fill(Rect(x: row.x + start, y: row.y, width: block, height: 1), with: glyphs.barFull, style: doneStyle)
        }
    }

    /// The first column of the moving block for a tick: 0, 1, … up to the right end and back.
    public static func blockStart(phase: Int, width: Int, blockWidth: Int) -> Int {
        let travel = width - blockWidth
        guard travel > 0 else { return 0 }
        let position = ((phase % (2 * travel)) + 2 * travel) % (2 * travel)
        return position <= travel ? position : 2 * travel - position
    }

    // MARK: - Private

    private func renderFraction(_ fraction: Double, into buffer: inout Buffer, row: Rect) {
        let clamped = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let steps = glyphs.barEighths.count + 1
        let filled = Int(clamped * Double(row.width * steps))
        let fullCells = filled / steps
        buffer.fill(Rect(x: row.x, y: row.y, width: fullCells, height: 1), with: glyphs.barFull, style: doneStyle)
        let partial = filled % steps
        if partial > 0 {
            var style = doneStyle
            style.background = todoStyle.background
            buffer.set(glyphs.barEighths[partial - 1], x: row.x + fullCells, y: row.y, style: style)
        }
    }
}
