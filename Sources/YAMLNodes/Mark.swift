/// Where a node or a problem starts in the YAML text, as libyaml reports it.
public struct Mark: Sendable, Hashable, CustomStringConvertible {
    /// 1-based.
    public let line: Int
    /// 1-based, counted in Unicode scalars (libyaml counts characters, not bytes).
    public let column: Int

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }

    /// The line of `yaml` the mark is on, ended by a newline, and a second line with `^` under
    /// the mark's column (in UTF-16 units, as Yams writes it). A line past the end of `yaml`
    /// shows the last line; a column past the end of its line puts `^` after the line's end.
    public func snippet(from yaml: String) -> String {
        let contents = SourceLines(yaml).line(at: line - 1)
        let scalars = contents.unicodeScalars
        let columnIndex = scalars.index(scalars.startIndex, offsetBy: column - 1, limitedBy: scalars.endIndex)?
            .samePosition(in: contents.utf16) ?? contents.utf16.endIndex
        let columnInUTF16 = contents.utf16.distance(from: contents.utf16.startIndex, to: columnIndex)
        return SourceLines.endingWithNewline(contents) + String(repeating: " ", count: columnInUTF16) + "^"
    }
}
