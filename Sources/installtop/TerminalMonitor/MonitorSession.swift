import CursesTerminal
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import Monitor
import MonitorRuntime
import TerminalUI

/// The interactive monitor: a synchronous loop that owns curses on the calling thread
/// (Documentation/TERMINAL.md). Engine events arrive through a `Mailbox`; the loop sleeps in `poll()` on
/// the keyboard, the mailbox and the signal pipe, feeds everything to `MonitorState`, performs
/// the effects, and draws at most 30 frames a second, only when something changed. With
/// nothing running it sets no timeout at all, so an idle monitor uses no CPU; after
/// `idleRelease` of that it gives back the code that ran once (`ResidentCode.release`), so it
/// holds little memory either.
enum MonitorSession {
    /// How long the monitor has had nothing to do before it releases its resident code.
    static let idleRelease: Duration = .seconds(5)
    /// Runs the monitor on the engine behind `link` until the user quits (or, with
    /// `exitWhenDone`, until every job has completed, or until the engine goes away), then gives
    /// the terminal back.
    ///
    /// In this process's engine, quitting while jobs run aborts them and waits until they have
    /// completed, showing it, before returning; a second `q` (or signal) kills them. SIGINT (Ctrl-C)
    /// asks like `q`; SIGTERM and SIGHUP abort and quit without asking. Attached to an engine
    /// elsewhere (`link.jobsOutliveMonitor`), `q`, `d` and every signal detach at once.
    ///
    /// - Parameters:
    ///   - themeOption: the `--theme` value (a name or a path); `nil` for the default theme.
    ///     User themes come from `~/.config/installtop/themes`; `NO_COLOR` removes colour.
    ///   - startingNote: shown instead of "no jobs" until the first job is queued (what the
    ///     engine is waiting for, such as ansible-playbook declaring its hosts).
    ///   - followedJob: a job of the engine whose end ends the monitor (`.followedJobEnded`); it
    ///     is selected when it appears.
    ///   - message: said in the status line when the monitor opens.
    ///   - shellHistory: on the board, the history database the shells its `s` opens on hosts
    ///     are recorded in (`RecordedHostShell`); `nil`: `s` opens none.
    ///   - night: on the board, the patch night it follows (`attach --night`); `nil`: none.
    ///   - onStart: called once the screen is set up and the monitor subscribed, before the
    ///     first frame: the place to submit jobs, so that nothing runs when the monitor could
    ///     not start (the errors below are thrown before it is called).
    ///   - signalsBeforeStart: asked once, after `onStart`: the termination signals that came
    ///     before the terminal caught them (the caller's relay took them), acted on as if they
    ///     had come just then.
    /// - Returns: how it ended; `.quitWhileRunning` means the jobs were aborted.
    /// - Throws: `ThemeError` for a bad `--theme` (before the screen changes),
    ///   `CursesTerminalError` when stdin/stdout is not a usable terminal, `MailboxError`.
    static func run(
        link: any EngineLink, themeOption: String?, exitWhenDone: Bool, startingNote: String? = nil, followedJob: Int? = nil,
        message: String? = nil, rolloutParallel: Int = 2, confirmWindow: Double? = nil, confirmByLogin: Bool = false,
        shellHistory: String? = nil, night: NightStampFollower? = nil, onStart: () -> Void = {},
        signalsBeforeStart: () -> [Int32] = { [] }
    ) throws -> MonitorOutcome {
        // A monitor stays open for hours: what the engine beside it frees must leave memory.
        ResidentCode.keepLargeAllocationsMapped()
        // The engine's snapshot starts arriving (and being decoded, on the link's thread) while
        // the themes load and the terminal is set up.
        let mailbox = try Mailbox(summariseAfter: 256 << 10, tailLines: QueueModel().outputCapacity)
        link.start(posting: mailbox)
        defer { link.stop() }
        night?.start(posting: mailbox)
        defer { night?.stop() }
        var catalog = ThemeCatalog(userDirectory: ThemeCatalog.userDirectory())
        let themeIndex = try themeOption.map { name throws(ThemeError) in try catalog.resolve(name) } ?? 0
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"] != nil
        let themes = catalog.themes.map { noColor ? $0.withoutColors() : $0 }
        guard !themes.isEmpty else { throw catalog.whyNoTheme }
        let terminal = CursesTerminal()
        try terminal.start()
        defer { terminal.stop() }
        var state = MonitorState(
            width: terminal.size.width, height: terminal.size.height,
            glyphs: terminal.isUTF8Locale ? .unicode : .ascii,
            themeNames: themes.map(\.name), themeIndex: themeIndex, now: Date())
        state.isAttached = link.jobsOutliveMonitor
        state.startingNote = startingNote
        state.followedJob = followedJob
        state.rolloutParallel = rolloutParallel
        state.confirmWindowSeconds = confirmWindow
        state.confirmByLogin = confirmByLogin
        var loop = MonitorLoop(
            link: link, terminal: terminal, mailbox: mailbox, themes: themes, exitWhenDone: exitWhenDone, state: state,
            whenIdle: (delay: Self.idleRelease, action: { ResidentCode.release() }))
        loop.followedJob = followedJob
        if let shellHistory { loop.shells = RecordedHostShell(historyPath: shellHistory, stopDescriptor: terminal.signalDescriptor) }
        onStart()
        for signal in signalsBeforeStart() { loop.receive(signal: signal) }
        if let message { loop.apply(.commandResult(message)) }
        if let problem = catalog.problems.first {
            loop.apply(.commandResult("Theme skipped: \(problem)"))
        }
        let quitWhileRunning = loop.run()
        if let reason = loop.lostLink { return .linkLost(reason) }
        if let ended = loop.followedJobEnded { return .followedJobEnded(ended) }
        return quitWhileRunning ? .quitWhileRunning : .quit
    }
}
