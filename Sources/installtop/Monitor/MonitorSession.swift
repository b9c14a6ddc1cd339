import CursesTerminal
import Foundation
import Glibc
import InstallEngine
import Monitor
import TerminalUI

/// The interactive monitor: a synchronous loop that owns curses on the calling thread
/// (SWIFT-NCURSES.md). Engine events arrive through a `Mailbox`; the loop sleeps in `poll()` on
/// the keyboard, the mailbox and the signal pipe, feeds everything to `MonitorState`, performs
/// the effects, and draws at most 30 frames a second, only when something changed. With
/// nothing running it sets no timeout at all, so an idle monitor uses no CPU.
enum MonitorSession {
    /// The shortest time between two frames (30 per second).
    static let frameInterval: Duration = .milliseconds(33)

    /// Runs the monitor on `queue` until the user quits (or, with `exitWhenDone`, until every
    /// job has completed), then gives the terminal back.
    ///
    /// Quitting while jobs run aborts them and waits until they have completed, showing it,
    /// before returning; a second `q` (or signal) kills them. SIGINT and SIGTERM ask like `q`;
    /// SIGHUP aborts and quits without asking.
    ///
    /// - Parameters:
    ///   - themeOption: the `--theme` value (a name or a path); `nil` for the default theme.
    ///     User themes come from `~/.config/installtop/themes`; `NO_COLOR` removes colour.
    ///   - history: what the `h` view shows and the medians ETAs start from; off by default.
    ///   - onStart: called once the screen is set up and the monitor subscribed, before the
    ///     first frame: the place to submit jobs, so that nothing runs when the monitor could
    ///     not start (the errors below are thrown before it is called).
    /// - Returns: true when the user quit while jobs were queued or running (they were aborted).
    /// - Throws: `ThemeError` for a bad `--theme` (before the screen changes),
    ///   `CursesTerminalError` when stdin/stdout is not a usable terminal, `MailboxError`.
    static func run(
        queue: JobQueue, themeOption: String?, exitWhenDone: Bool, history: MonitorHistory = .off("history is off"),
        onStart: () -> Void = {}
    ) throws -> Bool {
        var catalog = ThemeCatalog(userDirectory: ThemeCatalog.userDirectory())
        let themeIndex = try themeOption.map { name throws(ThemeError) in try catalog.resolve(name) } ?? 0
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"] != nil
        let themes = catalog.themes.map { noColor ? $0.withoutColors() : $0 }
        guard !themes.isEmpty else {
            throw catalog.problems.first ?? ThemeError(file: "Themes", message: "no theme could be loaded")
        }
        let mailbox = try Mailbox(outputLimit: QueueModel().outputCapacity)
        let terminal = CursesTerminal()
        try terminal.start()
        defer { terminal.stop() }
        let subscription = queue.subscribe { mailbox.post(.engine($0)) }
        defer { subscription.cancel() }
        var loop = MonitorLoop(
            queue: queue, terminal: terminal, mailbox: mailbox, themes: themes, exitWhenDone: exitWhenDone,
            loadHistory: history.load(limit:), state: MonitorState(
                width: terminal.size.width, height: terminal.size.height,
                glyphs: terminal.isUTF8Locale ? .unicode : .ascii,
                themeNames: themes.map(\.name), themeIndex: themeIndex, now: Date()))
        let durations = history.medianDurations
        if !durations.isEmpty { loop.apply(.historicalDurations(durations)) }
        onStart()
        if let problem = catalog.problems.first {
            loop.apply(.commandResult("Theme skipped: \(problem)"))
        }
        return loop.run()
    }
}
