import Glibc

/// The line said while a package job's plan is being made (apt's resolution takes 1–5 s on a
/// real system, and the monitor can only open once the plan is known): on a terminal,
/// `installtop: apt install nginx: planning…` on stderr, so the screen is never blank meanwhile.
/// It stays above the monitor's alternate screen and the summary after it. Off a terminal
/// (scripts, CI logs) nothing is said: the wait is no one's to watch.
enum PlanningNotice {
    /// Says that `subject` (`apt install nginx`) is being planned, when stderr is a terminal.
    static func say(_ subject: String, stderrIsTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        guard stderrIsTerminal else { return }
        StandardOutput.stderr.line("installtop: \(subject): planning…")
    }
}
