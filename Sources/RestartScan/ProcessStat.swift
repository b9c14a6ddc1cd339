import TextBasics
/// What `/proc/PID/stat` says about a process: the fields installtop reads (the kernel's
/// `proc_pid_stat(5)` numbering in the comments).
///
/// The command (field 2) is the kernel's `comm` in parentheses. A program chooses its own, up to
/// 15 bytes, and may put spaces, parentheses and even newlines in it (`a) b (c`), so it runs
/// from the first `(` to the *last* `)` of the text, and the numbered fields are counted after
/// that `)`. No field after it can hold a `)`.
public struct ProcessStat: Sendable, Hashable {
    /// Field 1.
    public var pid: Int32
    /// Field 2, `comm`, without its parentheses: possibly empty, possibly holding `)`.
    public var command: String
    /// Field 3: one of `R S D Z T t W X x I P K`.
    public var state: Character
    /// Field 4, the parent's pid; 0 for the kernel's first processes.
    public var parent: Int32
    /// Field 5.
    public var processGroup: Int32
    /// Field 6.
    public var session: Int32
    /// Field 7, `tty_nr`: the controlling terminal's device number; 0 for none.
    public var terminalDevice: Int32
    /// Field 9, the kernel's `PF_*` flags.
    public var flags: UInt64
    /// Field 22, `starttime`: clock ticks after boot. With the pid, it tells a process apart
    /// from a later one that got the same pid.
    public var startTicks: UInt64

    /// Reads the text of a `stat` file. `nil` when it is not of that shape: no `(`, no `)` after
    /// it, a state that is not one letter, a number that is not one, or fewer fields than field
    /// 22 (an empty text, a file read as its process vanished).
    public init?(_ text: some StringProtocol) {
        guard let open = text.firstIndex(of: "("), let close = text.lastIndex(of: ")"), open < close,
              let pid = Int32(text[..<open].trimmingWhitespace()) else { return nil }
        // fields[0] is the state (field 3), so field N is fields[N - 3].
        let fields = text[text.index(after: close)...].split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count > 19, fields[0].count == 1, let state = fields[0].first, state.isLetter,
              let parent = Int32(fields[1]), let group = Int32(fields[2]), let session = Int32(fields[3]),
              let terminal = Int32(fields[4]), let flags = UInt64(fields[6]), let start = UInt64(fields[19])
        else { return nil }
        self.pid = pid
        command = String(text[text.index(after: open)..<close])
        self.state = state
        self.parent = parent
        processGroup = group
        self.session = session
        terminalDevice = terminal
        self.flags = flags
        startTicks = start
    }

    /// A zombie or dead process: it has exited, only its entry is left until it is reaped.
    public var isDead: Bool { state == "Z" || state == "X" || state == "x" }

    /// It is exiting (`PF_EXITING`): its files and locks are being closed.
    public var isExiting: Bool { flags & 0x4 != 0 }

    /// The controlling terminal as `ps` names it: `pts/N` (majors 136–143), `ttyN` (major 4),
    /// `MAJOR:MINOR` for any other; empty for none.
    public var terminal: String {
        let device = terminalDevice
        guard device != 0 else { return "" }
        let major = (device >> 8) & 0xfff
        let minor = (device & 0xff) | ((device >> 12) & 0xfff00)
        if (136...143).contains(major) { return "pts/\((major - 136) * 256 + minor)" }
        if major == 4 { return "tty\(minor)" }
        return "\(major):\(minor)"
    }
}
