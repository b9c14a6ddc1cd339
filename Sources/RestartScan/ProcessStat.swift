/// The two fields of `/proc/PID/stat` the scan uses to tell which init script started a
/// process: its parent and when it started.
struct ProcessStat {
    var parent: Int32
    /// Clock ticks after boot (field 22).
    var startTicks: UInt64

    /// Reads `stat`'s text: `812 (nginx: master) S 1 812 812 0 -1 … 2424 …`. The command may
    /// hold spaces and parentheses, so fields are counted after its last `)`. `nil` when the
    /// text is not of that shape.
    init?(_ text: String) {
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is the state (field 3), so field N is fields[N - 3].
        guard fields.count > 19, let parent = Int32(fields[1]), let start = UInt64(fields[19]) else { return nil }
        self.parent = parent
        startTicks = start
    }
}
