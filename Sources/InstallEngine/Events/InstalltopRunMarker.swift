import Glibc
import RestartScan

/// What an installtop engine's own apt transaction carries in its environment
/// (`INSTALLTOP_APT_RUN`), so that an engine watching the same dpkg knows it is no foreign
/// transaction (Documentation/OBSERVED-JOBS.md "One transaction, one record"): apt-get, dpkg and the hooks' relay
/// inherit it, the relay reports it with the initiator, and the log watcher reads it from the
/// lock holder's `/proc/PID/environ`.
///
/// The engine that runs the job records it; any other engine shows it live as that engine's
/// job and records nothing of it.
///
/// The text is `engine=812 run=33 tty=pts/1 job=Monthly patching`: `run` and `tty` are left out
/// when unknown, and `job`, which may hold spaces, comes last.
public struct InstalltopRunMarker: Sendable, Hashable {
    /// The environment variable that carries it.
    public static let variable = "INSTALLTOP_APT_RUN"

    /// The pid of the engine that runs the job.
    public var enginePID: Int32
    /// The job's run in that engine's history (`history --jobs`), when reserved when apt-get
    /// started; `nil` otherwise, or with `--no-history`.
    public var run: Int64?
    /// The engine's terminal (`pts/1`); empty when it has none (a service).
    public var terminal: String
    /// The job's name in that engine.
    public var job: String

    public init(enginePID: Int32, run: Int64? = nil, terminal: String = "", job: String = "") {
        self.enginePID = enginePID
        self.run = run
        self.terminal = terminal
        self.job = job
    }

    /// The marker of this process's engine: its pid and terminal, with `run` and `job` when
    /// the caller knows them.
    public static func thisEngine(run: Int64? = nil, job: String = "") -> InstalltopRunMarker {
        InstalltopRunMarker(enginePID: thisProcess.pid, run: run, terminal: thisProcess.terminal, job: job)
    }

    /// This process's pid and terminal, read from `/proc` once: every apt and dpkg command of
    /// every job carries them, and neither changes while the process lives.
    private static let thisProcess: (pid: Int32, terminal: String) = {
        let pid = getpid()
        return (pid, ProcFS().stat(of: pid)?.terminal ?? "")
    }()

    /// Reads the variable's text; `nil` when it names no engine (a malformed or empty value is
    /// no marker: the transaction is then observed as anyone else's).
    public init?(text: String) {
        var enginePID: Int32?
        var run: Int64?
        var terminal = ""
        var job = ""
        var rest = Substring(text)
        while let word = rest.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true).first {
            if word.hasPrefix("job=") {
                job = String(rest[rest.index(word.startIndex, offsetBy: 4)...])
                break
            }
            rest = rest[word.endIndex...]
            guard let equals = word.firstIndex(of: "=") else { continue }
            let value = word[word.index(after: equals)...]
            switch word[..<equals] {
            case "engine": enginePID = Int32(value)
            case "run": run = Int64(value)
            case "tty": terminal = String(value)
            default: continue
            }
        }
        guard let enginePID, enginePID > 0 else { return nil }
        self.init(enginePID: enginePID, run: run, terminal: terminal, job: job)
    }

    /// The variable's value.
    public var text: String {
        var words = ["engine=\(enginePID)"]
        if let run { words.append("run=\(run)") }
        if !terminal.isEmpty, !terminal.contains(" ") { words.append("tty=\(terminal)") }
        if !job.isEmpty { words.append("job=\(job)") }
        return words.joined(separator: " ")
    }

    /// `installtop run 33` (or `installtop pid 812` without a run) `· Monthly patching`, the name
    /// a watching engine gives the job it shows.
    public var title: String {
        let engine = run.map { "installtop run \($0)" } ?? "installtop pid \(enginePID)"
        return job.isEmpty ? engine : "\(engine) · \(job)"
    }
}
