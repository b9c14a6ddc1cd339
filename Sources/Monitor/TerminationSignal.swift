/// The signals the monitor turns into events instead of dying (the runner maps signal numbers).
public enum TerminationSignal: Sendable, Hashable {
    /// SIGINT: like `q`; a second one quits and aborts the jobs.
    case interrupt
    /// SIGTERM: from a service manager or `kill`, which cannot answer a question: like SIGHUP.
    case terminate
    /// SIGHUP: the terminal is gone; abort the jobs and quit once they completed, asking nothing.
    case hangup
}
