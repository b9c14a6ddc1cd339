/// One of a child's three pipes as the poller reads it.
struct WatchedPipe {
    /// Where its lines go.
    let sink: ChildLineSink
    /// The read end; -1 once it reached end of file or was given up.
    var fd: Int32
    var lines: LineAssembler
}
