import Glibc

/// The operator's terminal in raw mode while a shell on a host has it: every byte typed goes
/// to the host as it is (Ctrl-C included, which the host's terminal turns into its SIGINT, not
/// the board's), nothing is echoed or edited here. `restore()` puts back the settings found.
struct RawTerminalMode {
    private let descriptor: Int32
    private var saved: termios?

    /// Switches `descriptor` to raw mode; a descriptor that is not a terminal is left alone.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        var settings = termios()
        guard tcgetattr(descriptor, &settings) == 0 else { return }
        saved = settings
        cfmakeraw(&settings)
        _ = tcsetattr(descriptor, TCSADRAIN, &settings)
    }

    /// Puts back the settings `init` found; again does nothing.
    mutating func restore() {
        guard var settings = saved else { return }
        _ = tcsetattr(descriptor, TCSADRAIN, &settings)
        saved = nil
    }

    /// The terminal's columns and rows; `nil` when `descriptor` is not a terminal.
    static func size(of descriptor: Int32) -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }
}
