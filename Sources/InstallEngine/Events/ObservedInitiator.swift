/// Who runs an observed transaction (rule 28): the apt front end, `dpkg` run by hand or
/// unattended-upgrade that the hooks found above them in `/proc`; and, once its job is made,
/// the dpkg it changes, where its results are checked (rule 30), also by an engine that starts
/// after the one that watched it stopped.
public struct ObservedInitiator: Sendable, Hashable {
    public var pid: Int32
    /// Clock ticks after boot when it started (`/proc/PID/stat`): with the pid, it names the
    /// process across pid reuse.
    public var startTicks: UInt64
    /// Its program (`apt-get`, `dpkg`, `unattended-upgr`, the 15-byte `comm`).
    public var program: String
    public var commandLine: [String]
    public var uid: UInt32
    public var user: String
    /// `pts/1`; empty without one (a timer, a service).
    public var terminal: String
    /// dpkg's database the transaction changes (`/var/lib/dpkg`); `nil` until its job is made.
    public var administrativeDirectory: String?
    /// The log that dpkg writes there (`/var/log/dpkg.log`), when the engine knows it.
    public var dpkgLog: String?
    /// The installtop engine whose apt job this transaction is (`INSTALLTOP_APT_RUN` in its
    /// environment); `nil` for a transaction no installtop engine runs. Such a job is shown by
    /// a watching engine and recorded only by the engine that runs it.
    public var installtopRun: InstalltopRunMarker?

    public init(pid: Int32, startTicks: UInt64, program: String, commandLine: [String], uid: UInt32, user: String, terminal: String,
                administrativeDirectory: String? = nil, dpkgLog: String? = nil, installtopRun: InstalltopRunMarker? = nil) {
        self.pid = pid
        self.startTicks = startTicks
        self.program = program
        self.commandLine = commandLine
        self.uid = uid
        self.user = user
        self.terminal = terminal
        self.administrativeDirectory = administrativeDirectory
        self.dpkgLog = dpkgLog
        self.installtopRun = installtopRun
    }

    /// The program's name as people know it: `unattended-upgrade` for its cut `comm`.
    public var programName: String {
        if program == "unattended-upgr" { return "unattended-upgrade" }
        return program
    }

    /// The observed job's name: `apt-get install nginx — root on pts/1`; `unattended-upgrade`
    /// alone when it has no terminal and its command line says nothing more. Another
    /// installtop engine's job is named after that engine's run and job, with the terminal
    /// installtop runs on (its apt-get has none of its own): `installtop run 33 · Monthly
    /// patching — root on pts/1`.
    public var jobName: String {
        if let installtopRun {
            let terminal = installtopRun.terminal.isEmpty ? terminal : installtopRun.terminal
            return installtopRun.title + " — " + (terminal.isEmpty ? user : "\(user) on \(terminal)")
        }
        var words = commandLine.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
        if programName == "unattended-upgrade" || words.isEmpty { words = [programName] }
        // The interpreter of a script (python3 /usr/bin/unattended-upgrade) says nothing.
        if words.count > 1, words[0].hasPrefix("python") { words.removeFirst() }
        let who = terminal.isEmpty ? user : "\(user) on \(terminal)"
        return words.joined(separator: " ") + " — " + who
    }
}
