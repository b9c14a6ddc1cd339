#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import Monitor
import TerminalUI

/// The state of one monitor run: what `MonitorSession.run` loops over. Not thread-safe (it
/// owns curses); everything from other threads comes in through the mailbox.
public struct MonitorLoop {
    let link: any EngineLink
    let terminal: any MonitorTerminal
    let mailbox: Mailbox
    let themes: [Theme]
    let exitWhenDone: Bool
    /// The wall clock the state is told and ticks are timed by (a manual one in tests).
    let clock: @Sendable () -> Date
    public var state: MonitorState

    /// The shortest time between two frames (30 per second).
    public static let frameInterval: Duration = .milliseconds(33)

    private var needsDraw = true
    private var lastDraw: ContinuousClock.Instant?
    private var quitResult: Bool?
    /// Why the engine went away, when it did; the loop ends with it.
    public private(set) var lostLink: String?
    /// The link has posted what the engine had (`.ready`): until then no frame is drawn, so
    /// the first one shows the whole queue, not the part of a snapshot that has arrived.
    private var ready = false
    /// When the loop began: if `.ready` takes longer than `readyPatience`, it draws anyway.
    private let startedAt = ContinuousClock.now
    private static let readyPatience: Duration = .milliseconds(500)
    private var sawJobs = false
    /// What the board's `s` runs (a recorded shell on a host); `nil`: the key says it cannot.
    public var shells: (any HostShellOpener)?
    /// The job whose end ends the loop (`installtop apt` in an engine elsewhere); see
    /// `followedJobEnded`.
    public var followedJob: Int?
    /// Whether the followed job has been seen in the queue: only then does its absence mean it left.
    private var sawFollowedJob = false
    /// The followed job's last state once it completed (`.some(nil)`: it left without a result).
    public private(set) var followedJobEnded: JobState??
    /// The terminal hung up (its input reports POLLHUP or an error): it is left out of
    /// `poll()` from then on, which would otherwise return at once forever and spin.
    private var inputLost = false
    /// Its action runs once the monitor has had nothing to do (no input, no event, no tick, no
    /// frame) for its `delay`; again only after something happened since.
    private let whenIdle: (delay: Duration, action: () -> Void)?
    /// When the loop last had something to do; `nil` once `whenIdle` ran for that stretch.
    private var busyAt: ContinuousClock.Instant? = .now

    /// - Parameters:
    ///   - clock: the time ticks carry and are due by; the system's by default.
    ///   - whenIdle: what to do once nothing has happened for `delay` (`ResidentCode.release`
    ///     in `installtop`: an idle monitor gives back the code that ran once).
    public init(
        link: any EngineLink, terminal: any MonitorTerminal, mailbox: Mailbox, themes: [Theme], exitWhenDone: Bool,
        state: MonitorState, clock: @escaping @Sendable () -> Date = { Date() },
        whenIdle: (delay: Duration, action: () -> Void)? = nil
    ) {
        self.link = link
        self.terminal = terminal
        self.mailbox = mailbox
        self.themes = themes
        self.exitWhenDone = exitWhenDone
        self.clock = clock
        self.state = state
        self.whenIdle = whenIdle
    }

    /// Loops until a `.quit` effect (or every job done with `exitWhenDone`, or the engine
    /// lost: see `lostLink`); returns whether the user quit while jobs ran.
    public mutating func run() -> Bool {
        while true {
            drawIfDue()
            if let quitResult { return quitResult }
            if lostLink != nil { return false }
            if exitWhenDone, sawJobs, state.isIdle {
                draw()
                return false
            }
            if let followedJob {
                let job = state.queue.job(followedJob)
                if job != nil { sawFollowedJob = true }
                if job?.phase == .completed || (sawFollowedJob && job == nil) {
                    draw()
                    followedJobEnded = .some(job)
                    return false
                }
            }
            wait()
            processInput()
        }
    }

    /// Feeds one event to the state and performs its effects.
    public mutating func apply(_ event: MonitorEvent) {
        for effect in state.handle(event) { perform(effect) }
    }

    // MARK: - Waiting

    /// Sleeps in `poll()` until input, an engine event, a signal, the next tick or the next
    /// allowed frame; with none of the last two pending it sleeps without a timeout, after
    /// `whenIdle` when it is due.
    /// Acts on a termination signal as the monitor does on one its terminal caught: SIGINT like
    /// `q`, SIGTERM and SIGHUP abort and quit. Others are ignored.
    public mutating func receive(signal: Int32) {
        switch signal {
        case SIGINT: apply(.signal(.interrupt))
        case SIGTERM: apply(.signal(.terminate))
        case SIGHUP: apply(.signal(.hangup))
        default: break
        }
    }

    private mutating func wait() {
        var deadlines: [Duration] = []
        if let tick = state.nextTickTime {
            deadlines.append(.milliseconds(Int64((max(0, tick.timeIntervalSince(clock())) * 1000).rounded(.up))))
        }
        if needsDraw, let lastDraw {
            deadlines.append(max(.zero, Self.frameInterval - (ContinuousClock.now - lastDraw)))
        }
        if !ready { deadlines.append(max(.zero, Self.readyPatience - (ContinuousClock.now - startedAt))) }
        // Only the idle action is due: a timeout then is not something happening.
        var waitsOnlyToIdle = false
        if deadlines.isEmpty, let whenIdle, let busyAt {
            let idleFor = ContinuousClock.now - busyAt
            if idleFor >= whenIdle.delay {
                whenIdle.action()
                self.busyAt = nil
            } else {
                deadlines.append(whenIdle.delay - idleFor)
                waitsOnlyToIdle = true
            }
        }
        let timeout = deadlines.min().map { Int32(clamping: $0.wholeMilliseconds) } ?? -1
        var descriptors = [
            pollfd(fd: mailbox.readDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: terminal.signalDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        if !inputLost {
            descriptors.append(pollfd(fd: terminal.inputDescriptor, events: Int16(POLLIN), revents: 0))
        }
        // EINTR (SIGWINCH, our signals) just means: look at everything again.
        if poll(&descriptors, nfds_t(descriptors.count), timeout) != 0 || !waitsOnlyToIdle {
            // Something came, or a tick or a frame is due.
            busyAt = .now
        }
        if !inputLost, Int32(descriptors[2].revents) & (POLLHUP | POLLERR | POLLNVAL) != 0 {
            // Like SIGHUP, which a vanished terminal does not always send: abort and wait.
            inputLost = true
            apply(.signal(.hangup))
        }
    }

    // MARK: - Input

    /// Keys first: under a flood of engine events, what the user typed still acts at once.
    private mutating func processInput() {
        // After an idle stretch only engine events and ticks would have moved the state's
        // clock; a message a key shows must not start out already expired.
        state.advanceClock(to: clock())
        for signal in terminal.takeSignals() { receive(signal: signal) }
        for key in terminal.readKeys() {
            if key == .resize {
                terminal.invalidate()
                apply(.resize(width: terminal.size.width, height: terminal.size.height))
            } else {
                apply(.key(key))
            }
        }
        // Engine events in a row are applied as one batch: a snapshot of 10,000 updates fixes
        // the screen up once, not thousands of times.
        var batch: [EngineEvent] = []
        for item in mailbox.drain() {
            if case .engine(let event) = item {
                batch.append(event)
                continue
            }
            if !batch.isEmpty {
                apply(.engineEvents(batch))
                batch = []
            }
            switch item {
            case .engine: break
            case .commandResult(let text): apply(.commandResult(text))
            case .monitor(let event): apply(event)
            case .linkLost(let reason): lostLink = reason
            case .ready: ready = true
            }
        }
        if !batch.isEmpty { apply(.engineEvents(batch)) }
        if !state.queue.jobs.isEmpty { sawJobs = true }
        let time = clock()
        if let tick = state.nextTickTime, tick <= time {
            apply(.tick(time))
        }
    }

    // MARK: - Effects

    private mutating func perform(_ effect: MonitorEffect) {
        switch effect {
        case .command(let command):
            link.perform(command)
        case .submit(let name, let updates):
            link.submit(name: name, updates: updates)
        case .submitOnHost(let host, let name, let updates):
            link.submit(name: name, updates: updates, onHost: host)
        case .upgradeOnHost(let host, let full, let confirmSeconds):
            // Not sent: the host's place in the rollout ends there rather than planning forever.
            if let refusal = link.upgrade(onHost: host, full: full, confirmSeconds: confirmSeconds) {
                apply(.host(.upgradeRefused(host, reason: refusal, upToDate: false)))
            }
        case .keepRun(let host, let run):
            link.keep(run: run, onHost: host)
        case .keepRunAfterFreshLogin(let host, let run):
            link.checkFreshLogin(run: run, onHost: host)
        case .loadHistory(let limit):
            link.loadHistory(limit: limit)
        case .loadJobRuns(let limit):
            link.loadJobRuns(limit: limit)
        case .undo(let run):
            link.undo(run: run)
        case .loadHistoryOnHost(let host, let limit):
            link.loadHistory(limit: limit, onHost: host)
        case .loadJobRunsOnHost(let host, let limit):
            link.loadJobRuns(limit: limit, onHost: host)
        case .undoOnHost(let host, let run):
            link.undo(run: run, onHost: host)
        case .refreshOnHost(let host):
            link.refreshLists(onHost: host)
        case .openShell(let host):
            openShell(on: host)
        case .loadShellRuns(let host, let limit):
            shells?.loadShellRuns(onHost: host, limit: limit, posting: mailbox)
        case .replayShell(let run):
            guard let shells else {
                apply(.commandResult("installtop replay \(run) plays it (this monitor records no shells)"))
                return
            }
            handOverTerminal { shells.replay(run: run) }
        case .quit(let abortRunning):
            quitResult = abortRunning
        case .redraw:
            needsDraw = true
        }
    }

    // MARK: - A shell on a host

    /// Hands the terminal to a shell on `host` until it exits, then takes it back: the whole
    /// screen is drawn afresh and the status line says how the shell ended. Engine events that
    /// came meanwhile wait in the mailbox and are applied on the next pass. A recording played
    /// from the history view (`.replayShell`) has the terminal the same way.
    private mutating func openShell(on host: String) {
        guard let shells, let ssh = link.sshCommand(ofHost: host) else {
            apply(.commandResult("No shell here: s opens one on a host of the board (installtop attach --host)"))
            return
        }
        handOverTerminal { shells.openShell(on: host, through: ssh) }
    }

    /// Suspends curses, runs `body` (which has the terminal until it returns), takes the
    /// terminal back, and says what `body` returned in a frame drawn afresh.
    private mutating func handOverTerminal(_ body: () -> String) {
        terminal.suspend()
        let said = body()
        terminal.resume()
        terminal.invalidate()
        // The shell may have lasted long: the message must not start out expired.
        state.advanceClock(to: clock())
        apply(.resize(width: terminal.size.width, height: terminal.size.height))
        apply(.returnedFromShell(said))
        needsDraw = true
    }

    // MARK: - Drawing

    private mutating func drawIfDue() {
        guard needsDraw, ready || ContinuousClock.now - startedAt >= Self.readyPatience else { return }
        if let lastDraw, ContinuousClock.now - lastDraw < Self.frameInterval { return }
        draw()
    }

    private mutating func draw() {
        let theme = themes[min(state.themeIndex, themes.count - 1)]
        terminal.draw(MonitorRenderer.render(state, theme: theme))
        lastDraw = ContinuousClock.now
        needsDraw = false
    }
}
