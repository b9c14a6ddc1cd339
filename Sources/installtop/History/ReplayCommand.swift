import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallHistory
import TerminalUI

/// `installtop replay RUN`: plays back the recording of a shell the board opened on a host
/// (`s`), with its timing, on this terminal.
///
/// The recording's output goes to stdout as the host wrote it (escape sequences and all, as
/// `asciinema play` does); what installtop says goes to stderr. Afterwards, on a terminal, every
/// mode the recording may have set is reset (`TerminalModeReset`), also when Ctrl-C stops it.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play back a shell the board opened on a host (its s), with its timing.",
        discussion: """
            RUN is a run of kind shell from `installtop history --jobs`: the board (`installtop \
            attach --host …`) records each shell its s opens as an asciicast v2 file in shells/ \
            beside the history database, the host's output only (never what was typed). The \
            output is written to stdout with the pauses it had (--speed, --idle-limit, \
            --instant); what installtop says is on stderr. Exit status: 0 played to the end or \
            stopped by a signal, 1 no such run, not a shell, or a recording that cannot be read, \
            2 invalid usage.
            """
    )

    @Argument(help: ArgumentHelp("The shell's run id (installtop history --jobs lists them).", valueName: "RUN"))
    var runNumber: Int?

    @Option(help: ArgumentHelp("Play this asciicast v2 file instead of a run's recording.", valueName: "path"))
    var file: String?

    @Option(help: ArgumentHelp(
        "The history database the board recorded in (default: $XDG_STATE_HOME/installtop/history.sqlite3, where attach records).",
        valueName: "path"))
    var historyDb: String?

    @Option(help: ArgumentHelp("How many times faster than it happened.", valueName: "factor"))
    var speed: Double = 1

    @Option(help: ArgumentHelp("Cut every pause longer than this to this many seconds.", valueName: "seconds"))
    var idleLimit: Double?

    @Flag(help: "Write the whole output at once, without pauses.")
    var instant = false

    func validate() throws {
        guard (runNumber == nil) != (file == nil) else { throw ValidationError("name a RUN or give --file, one of them") }
        if file != nil, historyDb != nil { throw ValidationError("--history-db finds a RUN's recording: --file names one itself") }
        guard speed > 0, speed.isFinite else { throw ValidationError("--speed must be a number above 0") }
        if let idleLimit, !(idleLimit >= 0) { throw ValidationError("--idle-limit must not be negative") }
        if instant, speed != 1 || idleLimit != nil { throw ValidationError("--instant plays without pauses: --speed and --idle-limit are for pauses") }
    }

    func run() throws {
        let stderr = StandardOutput.stderr
        let path: String
        var heading: String
        if let file {
            path = file
            heading = file
        } else {
            (path, heading) = try recording(of: runNumber ?? 0)
        }
        let recording: AsciicastRecording
        do {
            recording = try AsciicastRecording.read(path: path)
        } catch {
            stderr.line("installtop: \(error.description)")
            throw ExitCode.failure
        }
        heading += " · \(recording.header.width)×\(recording.header.height)"
        stderr.line("installtop: \(heading)" + (instant ? "" : " · Ctrl-C stops"))
        let schedule = AsciicastSchedule(recording, speed: instant ? .infinity : speed, idleLimit: idleLimit)
        if isatty(1) == 1 { Self.write(TerminalModeReset.saveTitle) }
        let (modes, signal) = SignalLatch.catching { Self.play(schedule) }
        if isatty(1) == 1 {
            Self.write(TerminalModeReset.bytes(after: modes))
        }
        stderr.line(signal == nil ? "installtop: end of the recording" : "installtop: stopped")
    }

    /// The recording of run `id` and a heading naming it; exits 1 saying why when there is none.
    private func recording(of id: Int) throws -> (path: String, heading: String) {
        let stderr = StandardOutput.stderr
        let database = historyDb ?? HistoryStore.defaultPath()
        let found: JobRun?
        let file: String
        do {
            let store = try HistoryStore(path: database, createIfMissing: false)
            found = try store.jobRun(Int64(id))
            file = store.shellRecording(run: Int64(id))
        } catch .missingDatabase(let missing) {
            stderr.line("installtop: there is no history at \(missing), so no run \(id) (--history-db names another)")
            throw ExitCode.failure
        } catch {
            stderr.line("installtop: \(error.description)")
            throw ExitCode.failure
        }
        guard let run = found else {
            stderr.line("installtop: \(database) holds no run \(id): installtop history --jobs lists them")
            throw ExitCode.failure
        }
        guard run.kind == JobRun.shellKind else {
            stderr.line("installtop: run \(id) is \(run.kind == "apt" || run.kind == "dnf" ? "an" : "a") \(run.kind) job, not a shell: only the shells the board's s opens are recorded")
            throw ExitCode.failure
        }
        var heading = "run \(id), \(run.name)"
        if let started = run.startedAt { heading += ", " + started.ISO8601Format() }
        if let ended = run.endedAt, let started = run.startedAt {
            heading += ", \(Int(ended.timeIntervalSince(started).rounded())) s"
        } else {
            heading += " (its end was not recorded)"
        }
        return (file, heading)
    }

    /// Writes each step when it is due; stops early once a termination signal was latched.
    /// Returns what the output written did that the reset after it must undo with care.
    private static func play(_ schedule: AsciicastSchedule) -> TerminalModeTracker {
        var modes = TerminalModeTracker()
        let start = ContinuousClock.now
        for step in schedule.steps {
            let due = start + .microseconds(Int64(step.at * 1_000_000))
            while ContinuousClock.now < due {
                if SignalLatch.caught != nil { return modes }
                let left = due - ContinuousClock.now
                // In slices, so a Ctrl-C is heard within 50 ms.
                usleep(UInt32(min(50_000, max(1, left.components.seconds * 1_000_000 + left.components.attoseconds / 1_000_000_000_000))))
            }
            if SignalLatch.caught != nil { return modes }
            modes.scan(step.data.utf8)
            StandardOutput.stdout.write(step.data)
        }
        return modes
    }

    private static func write(_ bytes: [UInt8]) {
        StandardOutput.stdout.write(String(decoding: bytes, as: UTF8.self))
    }
}
