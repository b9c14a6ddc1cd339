import Glibc
import RestartScan

/// The process an observed transaction belongs to, read from `/proc`: the apt front end (or
/// `dpkg` run by hand, or unattended-upgrade) above the hook, with its command line, user,
/// terminal and start time. Its pid and start time name the transaction at the engine.
struct ObservedProcess {
    let pid: Int32
    /// Clock ticks after boot (`/proc/PID/stat` field 22): with the pid, unique across reuse.
    let startTicks: UInt64
    /// The program's name (`comm`).
    let program: String
    let commandLine: [String]
    let uid: UInt32
    let user: String
    /// `pts/1`, `tty2`; empty when it has none.
    let terminal: String
    /// The nearest `dpkg` between the hook and the initiator; 0 when the hook runs under apt.
    let dpkg: Int32
    /// `INSTALLTOP_APT_RUN` as apt and dpkg handed it down to the hook: the transaction is an
    /// installtop engine's apt job (`InstalltopRunMarker`'s text, passed on as it is); `nil`
    /// for any other.
    let installtopRun: String?

    /// Names of the programs that run transactions. `unattended-upgr` is the 15-byte `comm`
    /// of `unattended-upgrade`.
    static let frontEnds: Set<String> = [
        "dpkg", "apt", "apt-get", "aptitude", "aptitude-curses", "unattended-upgr", "packagekitd", "synaptic",
    ]
    static let shells: Set<String> = ["sh", "dash", "bash"]

    /// Walks up from `pid`'s parent: past the shells the hook runs in, then through the
    /// package managers above it (dpkg under apt-get under unattended-upgrade); the topmost is
    /// the initiator. When the first process that is no shell is no known front end (a Python
    /// program using python-apt), that process is the initiator. `nil` when `/proc` is unreadable.
    static func initiator(ofParentOf pid: Int32) -> ObservedProcess? {
        let proc = ProcFS()
        var current = proc.stat(of: pid)?.parent ?? 0
        var initiator: ProcessStat?
        var dpkg: Int32 = 0
        while current > 1, let stat = proc.stat(of: current) {
            if initiator == nil && shells.contains(stat.command) {
                current = stat.parent
                continue
            }
            if initiator != nil && !frontEnds.contains(stat.command) { break }
            if stat.command == "dpkg" && dpkg == 0 { dpkg = stat.pid }
            initiator = stat
            if !frontEnds.contains(stat.command) { break }
            current = stat.parent
        }
        guard let initiator else { return nil }
        let uid = proc.status(of: initiator.pid)?.realUID ?? 0
        return ObservedProcess(
            pid: initiator.pid, startTicks: initiator.startTicks, program: initiator.command,
            commandLine: proc.commandLine(of: initiator.pid), uid: uid, user: userName(uid),
            terminal: initiator.terminal, dpkg: dpkg == initiator.pid ? 0 : dpkg,
            installtopRun: getenv("INSTALLTOP_APT_RUN").map { String(cString: $0) })
    }

    private static func userName(_ uid: UInt32) -> String {
        guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return String(uid) }
        return String(cString: name)
    }
}
