#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallHistory
import RestartScan
import TextBasics

/// A commit-confirmed run's deadline handed to systemd (Documentation/COMMIT-CONFIRMED.md): a
/// timer, `installtop-revert-RUN-ID.timer`, and its service, which runs `installtop TOOL revert
/// RUN --due` at the deadline, so that the run is reverted on time also when neither the
/// waiting command nor an engine is alive (killed with SIGKILL, never started) and across a
/// reboot: the units are files in `/etc/systemd/system`, the timer is enabled
/// (`WantedBy=timers.target`) and `Persistent=`, so a deadline that passed while the machine was
/// down fires as it boots. The revert claims the window in the history like any other
/// reverter, so a timer that fires after a confirmation, or beside the engine's revert, changes
/// nothing. A confirmation, or the end of a revert, disables the timer and removes both files.
/// Where systemd does not run this machine nothing is written, scheduled, stopped or moved.
/// The folder, systemctl and that check are `SystemdTools`.
struct RevertTimer: Sendable {
    let run: Int64
    /// The run's history as an absolute path, symbolic links resolved (when it exists): the
    /// path the timer's revert opens, whatever directory systemd runs it in.
    let historyDatabase: String
    let tools: SystemdTools
    /// The run's package tool (`apt`, `dnf`), whose revert the timer runs.
    let tool: String

    /// Systemd's slack for the timer: it fires at most this late, never early.
    static let accuracy = "1s"

    init(run: Int64, historyDatabase: String, tool: String = "apt", tools: SystemdTools = .current()) {
        self.run = run
        self.tool = tool
        self.historyDatabase = Self.canonical(historyDatabase)
        self.tools = tools
    }

    /// Schedules the revert of `window`'s run at its deadline: the single call of every point
    /// that arms a window. Nothing happens where systemd does not run.
    static func schedule(window: ConfirmWindow, historyDatabase: String, tools: SystemdTools = .current()) -> RevertTimerOutcome {
        RevertTimer(run: window.run, historyDatabase: historyDatabase, tool: window.tool, tools: tools).schedule(at: window.deadline)
    }

    /// The units' name without `.timer` or `.service`: `installtop-revert-RUN-ID`, ID the
    /// history's `historyID`, so that the runs of two histories (the service's and root's own)
    /// never share a timer.
    var unit: String { "installtop-revert-\(run)-\(Self.historyID(historyDatabase))" }

    var timerFile: String { tools.unitDirectory + "/\(unit).timer" }
    var serviceFile: String { tools.unitDirectory + "/\(unit).service" }

    /// The service the timer starts: the revert, with the history as an absolute path (the apt
    /// root, the chroot or dnf's root are the window's, which the revert reads).
    func serviceUnit(executable: String) -> String {
        let command = [executable, tool, "revert", String(run), "--due", "--yes", "--plain", "--history-db", historyDatabase]
        return """
            [Unit]
            Description=installtop: revert run \(run) unless confirmed (\(Self.escaped(historyDatabase)))

            [Service]
            Type=oneshot
            ExecStart=\(command.map(Self.quoted).joined(separator: " "))

            """
    }

    /// The timer: at `deadline`, kept across reboots (`Persistent=`, enabled in timers.target).
    func timerUnit(at deadline: Date) -> String {
        """
        [Unit]
        Description=installtop: the deadline of run \(run) (\(Self.escaped(historyDatabase)))

        [Timer]
        OnCalendar=\(Self.calendar(deadline))
        AccuracySec=\(Self.accuracy)
        Persistent=true

        [Install]
        WantedBy=timers.target

        """
    }

    /// `systemctl daemon-reload`: systemd reads the unit files again.
    var reloadCommand: [String] { [tools.systemctl, "daemon-reload", "--no-ask-password"] }
    /// `systemctl enable --now UNIT.timer`: started, and again at every boot.
    var enableCommand: [String] { [tools.systemctl, "enable", "--now", "--no-ask-password", "\(unit).timer"] }
    /// `systemctl restart UNIT.timer`: the timer takes its new deadline.
    var restartCommand: [String] { [tools.systemctl, "restart", "--no-ask-password", "\(unit).timer"] }
    /// `systemctl disable --now UNIT.timer`: only the timer; a revert its service runs goes on.
    var disableCommand: [String] { [tools.systemctl, "disable", "--now", "--no-ask-password", "\(unit).timer"] }

    /// Writes the units and enables the timer at `deadline`; says what was done. What was
    /// written is removed again when systemd refused it.
    func schedule(at deadline: Date) -> RevertTimerOutcome {
        guard tools.running else { return .systemdNotRunning }
        do {
            try FileManager.default.createDirectory(atPath: tools.unitDirectory, withIntermediateDirectories: true)
            try Self.write(serviceUnit(executable: Self.executable()), to: serviceFile)
            try Self.write(timerUnit(at: deadline), to: timerFile)
        } catch {
            removeFiles()
            return .failed("its units could not be written to \(tools.unitDirectory): \(error)")
        }
        for command in [reloadCommand, enableCommand] {
            let result = SystemCommand.run(command)
            guard result.status == 0 else {
                removeFiles()
                _ = SystemCommand.run(reloadCommand)
                return .failed("systemctl \(command[1]) failed: "
                    + HealthProbe.firstLine(result.stderr.isEmpty ? result.stdout : result.stderr, status: result.status))
            }
        }
        return .scheduled(unit: unit)
    }

    /// Moves the timer to `deadline` (an extension): its file rewritten, systemd told, the timer
    /// restarted. A timer that was never scheduled is scheduled.
    func move(to deadline: Date) -> RevertTimerOutcome {
        guard tools.running else { return .systemdNotRunning }
        guard FileManager.default.fileExists(atPath: timerFile) else { return schedule(at: deadline) }
        do {
            try Self.write(timerUnit(at: deadline), to: timerFile)
        } catch {
            return .failed("\(timerFile) could not be rewritten: \(error)")
        }
        for command in [reloadCommand, restartCommand] {
            let result = SystemCommand.run(command)
            guard result.status == 0 else {
                return .failed("systemctl \(command[1]) failed: "
                    + HealthProbe.firstLine(result.stderr.isEmpty ? result.stdout : result.stderr, status: result.status))
            }
        }
        return .scheduled(unit: unit)
    }

    /// Stops the timer for good (a confirmation, or the end of a revert): disabled, its files
    /// removed, systemd told. Nothing happens when none was scheduled. A failure is said once on
    /// stderr and otherwise ignored: the window in the history is what decides, and a timer that
    /// fires after it was settled changes nothing.
    func stop() {
        guard tools.running, FileManager.default.fileExists(atPath: timerFile) else { return }
        let result = SystemCommand.run(disableCommand)
        removeFiles()
        _ = SystemCommand.run(reloadCommand)
        // systemctl's exit status 5: no such unit loaded (it was never loaded, or is gone).
        guard result.status != 0 && result.status != 5 else { return }
        StandardOutput.stderr.line("installtop: run \(run): systemd's timer \(unit).timer could not be stopped (it changes nothing "
            + "when it fires): " + HealthProbe.firstLine(result.stderr.isEmpty ? result.stdout : result.stderr, status: result.status))
    }

    private func removeFiles() {
        try? FileManager.default.removeItem(atPath: timerFile)
        try? FileManager.default.removeItem(atPath: serviceFile)
    }

    /// `text` written whole, or not at all (a temporary file renamed over it).
    private static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// One argument of `ExecStart=`, quoted as systemd reads it: `"`, `\\`, `%` and `$` escaped.
    static func quoted(_ argument: String) -> String {
        "\"" + argument.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
            .replacing("%", with: "%%").replacing("$", with: "$$") + "\""
    }

    /// Text in a unit's `Description=`: its specifiers (`%`) escaped.
    static func escaped(_ text: String) -> String {
        text.replacing("%", with: "%%").replacing("\n", with: " ")
    }

    /// `2026-11-28 04:12:31 UTC`: `deadline` rounded up to the second, as systemd's
    /// `OnCalendar=` takes it, so the timer never fires before the deadline (the revert would
    /// find it not due, and the timer would be spent).
    static func calendar(_ deadline: Date) -> String {
        ConfirmWindowText.time(Date(timeIntervalSince1970: deadline.timeIntervalSince1970.rounded(.up))) + " UTC"
    }

    /// Twelve hex digits of the FNV-1a hash of `path`: short enough for a unit name, stable
    /// across processes (unlike Swift's `Hasher`), and the same for the arming, confirming and
    /// reverting processes, which all canonicalize the path first.
    static func historyID(_ path: String) -> String {
        String(StableHash.hex(path).prefix(12))
    }

    /// `path` absolute, and with its links resolved when it exists.
    static func canonical(_ path: String) -> String {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let resolved = realpath(absolute, nil) else { return absolute }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// This program's path for the timer to run: `/proc/self/exe`, without the kernel's
    /// ` (deleted)` when a package upgrade replaced the binary under the running process (the
    /// new one at that path is the one to run).
    static func executable() -> String {
        let path = ProcFS().ownExecutable() ?? CommandLine.arguments[0]
        return path.hasSuffix(" (deleted)") ? String(path.dropLast(" (deleted)".count)) : path
    }
}
