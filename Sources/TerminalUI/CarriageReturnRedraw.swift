/// One line of output as a terminal would leave it when the program redrew it with carriage
/// returns (dpkg's `(Reading database ... 45%` counting up, a download's progress): each CR
/// goes back to the first column and what follows writes over what was there, so the last
/// redraw wins and whatever of an earlier, longer one it did not cover stays visible.
///
/// Columns are measured with `DisplayWidth`; a control character other than CR counts as one
/// column (the sanitizer draws it as one visible picture). Writing over half of a wide
/// character blanks its other half, as a terminal does. A line without CR comes back as it is,
/// and a CR at the end (or CR LF's CR) changes nothing.
public enum CarriageReturnRedraw {
    /// What `line` leaves on the screen.
    public static func apply(_ line: String) -> String {
        guard line.utf8.contains(0x0D) else { return line }
        // Each cell holds the grapheme starting there, or nil for the second half of a wide one.
        var cells: [String?] = []
        var column = 0
        for character in line {
            if character == "\r" || character == "\r\n" {
                column = 0
                continue
            }
            let isControl = character.unicodeScalars.first.map { $0.value < 0x20 || $0.value == 0x7F } ?? false
            var width = isControl ? 1 : DisplayWidth.of(character)
            if width == 0 {
                // A mark or format character that starts no grapheme of its own stays with the
                // cell before, or takes a cell of its own at the start.
                if column > 0, let previous = cells[column - 1] {
                    cells[column - 1] = previous + String(character)
                    continue
                }
                width = 1
            }
            for offset in 0..<width { blankHalf(at: column + offset, in: &cells) }
            while cells.count < column + width { cells.append(" ") }
            cells[column] = String(character)
            if width == 2 { cells[column + 1] = nil }
            column += width
        }
        return cells.compactMap { $0 }.joined()
    }

    /// Before cell `index` is written: a wide character that it cuts loses its other half.
    private static func blankHalf(at index: Int, in cells: inout [String?]) {
        guard index < cells.count else { return }
        if cells[index] == nil, index > 0 {
            cells[index - 1] = " "
            cells[index] = " "
        } else if index + 1 < cells.count, cells[index + 1] == nil {
            cells[index + 1] = " "
        }
    }
}
