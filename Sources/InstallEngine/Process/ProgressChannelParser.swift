/// Turns one line of a child's progress channel (file descriptor 3) into an `UpdateReport`.
///
/// Pure and allocation-free for the hot `progress N` case: it reads bytes, and only builds a
/// `String` for text that ends up in the report. Accepted lines (Documentation/MANIFESTS-AND-DRIVERS.md):
/// - `progress <0-100> [message]` → `.progress`; the percent is an integer or a decimal
///   (`42`, `42.5`); anything else, or a value outside 0…100, is malformed.
/// - `message <text>` → `.message`; without text it is malformed.
/// - `error <text>` → `.error`; a bare `error` still counts, as `.error("unspecified error")`.
/// - `reboot-required` → `.rebootRequired`; trailing words make it malformed.
/// - APT status lines (`APT::Status-Fd`), see `APTStatusLine`.
///
/// Edges: a trailing `\r` (or several) is ignored; blanks (space, tab) around keywords and
/// texts are ignored; keywords are case-sensitive; an empty or blank line gives `nil` (no
/// report); everything else is `.malformedChannelLine`. Invalid UTF-8 in texts becomes U+FFFD.
public enum ProgressChannelParser {
    /// Parses one line given as raw bytes, without its `\n`.
    /// - Returns: the report, or `nil` for an empty or blank line.
    public static func parse(_ line: UnsafeRawBufferPointer) -> UpdateReport? {
        line.withMemoryRebound(to: UInt8.self) { parse(bytes: $0) }
    }

    /// Parses one line given as text, without its `\n` (convenient for tests and tools).
    /// - Returns: the report, or `nil` for an empty or blank line.
    public static func parse(_ line: String) -> UpdateReport? {
        var line = line
        return line.withUTF8 { parse(bytes: $0) }
    }

    // MARK: - Keywords

    static func parse(bytes line: UnsafeBufferPointer<UInt8>) -> UpdateReport? {
        var end = line.count
        while end > 0, line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        var start = 0
        while start < end, LineBytes.isBlank(line[start]) { start += 1 }
        guard start < end else { return nil }

        if let after = LineBytes.keyword("progress", in: line, from: start, to: end) {
            return progress(line, from: after, to: end)
        }
        if let after = LineBytes.keyword("message", in: line, from: start, to: end) {
            guard let text = LineBytes.text(line, after..<end) else { return .malformedChannelLine }
            return .message(text)
        }
        if let after = LineBytes.keyword("error", in: line, from: start, to: end) {
            return .error(LineBytes.text(line, after..<end) ?? "unspecified error")
        }
        if let after = LineBytes.keyword("reboot-required", in: line, from: start, to: end) {
            return LineBytes.isBlank(line, after..<end) ? .rebootRequired : .malformedChannelLine
        }
        return APTStatusLine.parse(line, from: start, to: end) ?? .malformedChannelLine
    }

    /// `progress <percent>[ <message>]`, from just after the keyword.
    private static func progress(_ line: UnsafeBufferPointer<UInt8>, from: Int, to end: Int) -> UpdateReport {
        var numberStart = from
        while numberStart < end, LineBytes.isBlank(line[numberStart]) { numberStart += 1 }
        var numberEnd = numberStart
        while numberEnd < end, !LineBytes.isBlank(line[numberEnd]) { numberEnd += 1 }
        guard let percent = DecimalPercent.parse(line, numberStart..<numberEnd), percent <= 100 else {
            return .malformedChannelLine
        }
        return .progress(percent: percent, message: LineBytes.text(line, numberEnd..<end))
    }
}
