/// One of a child's three pipes as the monitor thread reads it.
struct MonitoredPipe {
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
