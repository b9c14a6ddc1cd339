import Glibc
import InstallEngine
import RestartScan

/// The apt run the hook belongs to: pid, start time and `comm`, and its parent's `comm`.
struct ObservedAPTRun: Hashable {
    var pid: Int32
    var startTicks: UInt64
    var program: String
    var parentProgram: String

    /// `PID STARTTICKS`, the pending file's first line.
    var key: String { "\(pid) \(startTicks)" }

    /// The hook runs with installtop's mark (`INSTALLTOP_APT_RUN`, handed down by apt).
    var carriesInstalltopRun = false

    /// Whether installtop itself runs this apt (it keeps and records its own jobs): its
    /// parent is installtop, or apt carries the mark of an installtop engine's job.
    var isInstalltops: Bool { parentProgram == "installtop" || carriesInstalltopRun }

    /// Programs that run transactions (as `installtop-relay` knows them): apt runs its hooks
    /// in a forked copy of itself, and unattended-upgrade runs apt in its own process.
    static let frontEnds: Set<String> = ["apt", "apt-get", "aptitude", "aptitude-curses", "unattended-upgr", "packagekitd", "synaptic"]

    /// Walks up from this process's parent past the shells apt runs hooks in, then through
    /// the front ends above (apt's forked copy, apt, unattended-upgrade): the topmost one,
    /// the same for both hooks of one apt run. The first process that is no shell and no
    /// known front end (a program using python-apt) is the transaction's when it comes first.
    static func current() -> ObservedAPTRun? {
        let proc = ProcFS()
        var pid = getppid()
        var found: ProcessStat?
        while pid > 1, let stat = proc.stat(of: pid) {
            if found == nil, ["sh", "dash", "bash"].contains(stat.command) {
                pid = stat.parent
                continue
            }
            if found != nil, !frontEnds.contains(stat.command) { break }
            found = stat
            if !frontEnds.contains(stat.command) { break }
            pid = stat.parent
        }
        guard let found else { return nil }
        return ObservedAPTRun(pid: found.pid, startTicks: found.startTicks, program: found.command,
                              parentProgram: proc.stat(of: found.parent)?.command ?? "",
                              carriesInstalltopRun: getenv(InstalltopRunMarker.variable) != nil)
    }
}
