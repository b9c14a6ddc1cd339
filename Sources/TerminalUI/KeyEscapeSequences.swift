/// The escape sequences common terminals send for the navigation and editing keys, in every
/// variant in use: xterm's normal and application cursor modes (`ESC [ H`, `ESC O F`), the VT220
/// and Linux console form (`ESC [ 1 ~` Home, `ESC [ 4 ~` End, which tmux and screen send), and
/// rxvt's (`ESC [ 7 ~`, `ESC [ 8 ~`).
///
/// The terminal library knows only the sequences its terminal description lists for `TERM`;
/// one sent by a terminal (or a multiplexer) that `TERM` does not describe would otherwise arrive
/// as a lone Escape followed by text, and Escape closes views. The curses adapter teaches the
/// library every sequence here that it does not know already.
public enum KeyEscapeSequences {
    /// Each sequence and the key it stands for.
    public static let all: [(sequence: String, key: Key)] = {
        let escape = "\u{1B}"
        var table: [(String, Key)] = []
        for (final, key) in [("A", Key.up), ("B", .down), ("C", .right), ("D", .left), ("H", .home), ("F", .end)] {
            table.append((escape + "[" + final, key))
            table.append((escape + "O" + final, key))
        }
        let tilde: [(String, Key)] = [
            ("1", .home), ("7", .home), ("4", .end), ("8", .end),
            ("2", .insert), ("3", .delete), ("5", .pageUp), ("6", .pageDown),
        ]
        for (number, key) in tilde { table.append((escape + "[" + number + "~", key)) }
        return table
    }()

    /// The key `sequence` stands for, or `nil` when it is none of these.
    public static func key(for sequence: String) -> Key? {
        all.first { $0.sequence == sequence }?.key
    }
}
