/// Where the lines of one of a child's descriptors go. The poller's thread calls a sink for
/// each line, in order, without its newline and cut at the backend's line limit; a sink must
/// never block (what its lines lead to runs elsewhere, see `ChildPoller`).
public enum ChildLineSink: Sendable {
    /// Each line as text, invalid UTF-8 replaced by U+FFFD.
    case text(@Sendable (String) -> Void)
    /// Each line's bytes, valid only during the call: for a reader of its own protocol (the
    /// driver protocol's JSON Lines, apt's Status-Fd).
    case bytes(@Sendable (UnsafeBufferPointer<UInt8>) -> Void)
    /// The progress channel of Documentation/MANIFESTS-AND-DRIVERS.md, parsed by `ProgressChannelParser`; consecutive
    /// progress lines of one read merge into one report. A blank line reports nothing; a line it
    /// cannot read is reported as `.malformedChannelLine`.
    case progressChannel(any UpdateReporter)
}
