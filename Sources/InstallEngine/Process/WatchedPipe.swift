/// One of a child's three pipes as the poller reads it.
struct WatchedPipe {
    /// What the lines of the pipe are.
    enum Role {
        /// stdout or stderr: each line is reported as `.output`.
        case output(StandardStream)
        /// File descriptor 3: each line goes through `ProgressChannelParser`.
        case channel
    }

    let role: Role
    /// The read end; -1 once it reached end of file or was given up.
    var fd: Int32
    var lines: LineAssembler
}
