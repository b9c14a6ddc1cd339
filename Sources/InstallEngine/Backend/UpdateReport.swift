/// One thing a running update said: on its progress channel (fd 3) or on stdout/stderr.
public enum UpdateReport: Sendable, Hashable {
    /// `progress <0-100> [message]`, or an APT `pmstatus:`/`dlstatus:` line.
    /// `message` is `nil` when the line carried none (the previous status text stays).
    case progress(percent: Double, message: String?)
    /// `message <text>`, or an APT `pmconffile:` line: status text only.
    case message(String)
    /// `reboot-required`
    case rebootRequired
    /// `error <text>` or an APT `pmerror:` line: the update ends `succeededWithErrors` if it
    /// exits 0.
    case error(String)
    /// One line of stdout or stderr, without its newline. Invalid UTF-8 is already replaced
    /// by U+FFFD; control characters are left for the display layer to make visible.
    case output(StandardStream, String)
    /// A progress-channel line that could not be understood. Ignored, only counted.
    case malformedChannelLine
}
