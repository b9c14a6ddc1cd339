#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallHistory
import RestartScan

/// A commit-confirmed run's deadline handed to systemd (Documentation/COMMIT-CONFIRMED.md): a
/// transient timer, `installtop-revert-RUN-ID.timer`, that runs `installtop TOOL revert RUN --due`
/// at the deadline, so that the run is reverted on time also when neither the waiting command
/// nor an engine is alive (killed with SIGKILL, never started). The revert claims the window in
/// the history like any other reverter, so a timer that fires after a confirmation, or beside
/// the engine's revert, changes nothing.
///
/// A transient timer lives in systemd's memory: a reboot drops it. The engine's unit
/// (installtop.service, `WantedBy=multi-user.target`) reverts a window whose deadline passed at
/// its start instead. Where systemd does not run this machine nothing is scheduled, stopped or
/// moved. The tools and that check are `SystemdTools`.
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

    /// `systemd-run` with everything it needs to revert the run at `deadline`: the history as
    /// an absolute path (the apt root and chroot are the window's, which the revert reads).
    func scheduleCommand(at deadline: Date, executable: String) -> [String] {
        [tools.systemdRun, "--unit=\(unit)", "--description=installtop: revert run \(run) unless confirmed (\(historyDatabase))",
         "--on-calendar=\(Self.calendar(deadline))", "--timer-property=AccuracySec=\(Self.accuracy)", "--collect", "--no-ask-password",
         "--", executable, tool, "revert", String(run), "--due", "--yes", "--plain", "--history-db", historyDatabase]
    }

    /// `systemctl stop UNIT.timer`: only the timer; a revert its service runs goes on.
    var stopCommand: [String] { [tools.systemctl, "stop", "--no-ask-password", "\(unit).timer"] }

    /// Schedules the timer at `deadline`; says what was done.
    func schedule(at deadline: Date) -> RevertTimerOutcome {
        guard tools.running else { return .systemdNotRunning }
        let result = SystemCommand.run(scheduleCommand(at: deadline, executable: Self.executable()))
        guard result.status == 0 else {
            return .failed("\(URL(fileURLWithPath: tools.systemdRun).lastPathComponent) failed: "
                + HealthProbe.firstLine(result.stderr.isEmpty ? result.stdout : result.stderr, status: result.status))
        }
        return .scheduled(unit: unit)
    }

    /// Moves the timer to `deadline` (an extension): stopped, and scheduled again.
    func move(to deadline: Date) -> RevertTimerOutcome {
        guard tools.running else { return .systemdNotRunning }
        stop()
        return schedule(at: deadline)
    }

    /// Stops the timer (a confirmation, or the end of a revert). A timer that is not loaded (it
    /// fired, or was never scheduled) is no error; any other failure is said once on stderr and
    /// otherwise ignored: the window in the history is what decides, and a timer that fires
    /// after it was settled changes nothing.
    func stop() {
        guard tools.running else { return }
        let result = SystemCommand.run(stopCommand)
        // systemctl's exit status 5: no such unit loaded.
        guard result.status != 0 && result.status != 5 else { return }
        StandardOutput.stderr.line("installtop: run \(run): systemd's timer \(unit).timer could not be stopped (it changes nothing "
            + "when it fires): " + HealthProbe.firstLine(result.stderr.isEmpty ? result.stdout : result.stderr, status: result.status))
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
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String((String(repeating: "0", count: max(0, 16 - hex.count)) + hex).prefix(12))
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
