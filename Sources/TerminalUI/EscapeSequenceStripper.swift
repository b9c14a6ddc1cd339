/// Takes a terminal's escape sequences out of text that was written for a terminal (a shell
/// session's output), leaving what they surrounded:
/// - CSI sequences, `ESC [`, parameter bytes (`0`–`?`), intermediate bytes (space–`/`) and a
///   final byte (`@`–`~`): colours, cursor moves, erasures; one without its final byte loses
///   only its `ESC [`;
/// - OSC strings, `ESC ]` up to BEL or `ESC \` (both taken too): titles, links, clipboard
///   writes; one cut short loses everything up to the next ESC or the end;
/// - the other two-character sequences, `ESC` and one of `@`–`_`.
///
/// A lone ESC and every other control character stay: what to do with them is the caller's.
/// Works on Unicode scalars, in one pass.
public enum EscapeSequenceStripper {
    private static let escape: Unicode.Scalar = "\u{1B}"
    private static let bell: Unicode.Scalar = "\u{07}"

    /// `text` without its escape sequences.
    public static func stripping(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var kept = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == escape, index + 1 < scalars.count else {
                kept.append(scalars[index])
                index += 1
                continue
            }
            let introducer = scalars[index + 1].value
            switch introducer {
            case 0x5B: // [
                index = endOfControlSequence(scalars, from: index + 2) ?? index + 2
            case 0x5D: // ]
                index = endOfOperatingSystemCommand(scalars, from: index + 2)
            case 0x40...0x5F:
                index += 2
            default:
                kept.append(scalars[index])
                index += 1
            }
        }
        return String(kept)
    }

    /// Where a CSI sequence whose parameters start at `start` ends (after its final byte);
    /// `nil` when no final byte follows its parameter and intermediate bytes.
    private static func endOfControlSequence(_ scalars: [Unicode.Scalar], from start: Int) -> Int? {
        var index = start
        while index < scalars.count, (0x30...0x3F).contains(scalars[index].value) { index += 1 }
        while index < scalars.count, (0x20...0x2F).contains(scalars[index].value) { index += 1 }
        guard index < scalars.count, (0x40...0x7E).contains(scalars[index].value) else { return nil }
        return index + 1
    }

    /// Where an OSC string whose text starts at `start` ends: after its BEL or `ESC \`, or at
    /// the ESC or the end that cut it short.
    private static func endOfOperatingSystemCommand(_ scalars: [Unicode.Scalar], from start: Int) -> Int {
        var index = start
        while index < scalars.count, scalars[index] != bell, scalars[index] != escape { index += 1 }
        guard index < scalars.count else { return index }
        if scalars[index] == bell { return index + 1 }
        if index + 1 < scalars.count, scalars[index + 1] == "\\" { return index + 2 }
        return index
    }
}
