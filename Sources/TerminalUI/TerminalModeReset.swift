/// What to send a terminal after a program whose output installtop passed through untouched (a
/// shell on a host, a replayed recording), so that whatever modes that output set leave with
/// it: an escape, control or OSC string left open is ended (CAN, then ST), the alternate screen
/// left and the scrolling region and origin mode reset when the output set them
/// (`TerminalModeTracker`), a soft reset (DECSTR), then each mode by itself for terminals that
/// do less on DECSTR: mouse reporting, focus events and bracketed paste off, insert, newline
/// and cursor-key modes off, the keypad numeric, the character sets ASCII, colours and
/// attributes reset, autowrap on and the cursor shown. Every sequence is one xterm, tmux,
/// screen and the Linux console read or ignore; none clears the screen or the scrollback. The window title comes back only where the terminal keeps a stack of titles
/// (xterm, VTE): `saveTitle` before the program, the last sequence here pops it.
public enum TerminalModeReset {
    /// Pushes the window's title on the terminal's stack (XTWINOPS 22), for the pop at the end
    /// of `bytes`; terminals without a stack ignore it.
    public static let saveTitle: [UInt8] = Array("\u{1B}[22;0t".utf8)

    /// What to send after output that `tracker` read: `common`, preceded by leaving the
    /// alternate screen when the output stayed on it, and by resetting the scrolling region and
    /// origin mode when it set either, the cursor then put on the bottom row (those resets move
    /// it home, where the next lines would be written over the screen).
    public static func bytes(after tracker: TerminalModeTracker) -> [UInt8] {
        var bytes = Array("\u{18}\u{1B}\\".utf8)
        if tracker.alternateScreen { bytes += Array("\u{1B}[?1049l".utf8) }
        if tracker.movedMargins { bytes += Array("\u{1B}[r\u{1B}[?6l\u{1B}[9999;1H".utf8) }
        return bytes + common
    }

    /// The resets that never move the cursor.
    public static let common: [UInt8] = Array((
        "\u{18}\u{1B}\\"
        + "\u{1B}[!p"
        + "\u{1B}[?1000l\u{1B}[?1002l\u{1B}[?1003l\u{1B}[?1005l\u{1B}[?1006l\u{1B}[?1015l\u{1B}[?1004l\u{1B}[?2004l"
        + "\u{1B}[4l\u{1B}[20l\u{1B}[?1l"
        + "\u{1B}>\u{1B}(B\u{1B})B\u{0F}\u{1B}[m\u{1B}[?7h\u{1B}[?25h\u{1B}[23;0t"
    ).utf8)
}
