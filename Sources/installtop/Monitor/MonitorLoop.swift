import CursesTerminal
import Foundation
import Glibc
import InstallEngine
import Monitor
import TerminalUI

/// The state of one monitor run: what `MonitorSession.run` loops over. Not thread-safe (it
/// owns curses); everything from other threads comes in through the mailbox.
struct MonitorLoop {
    let queue: JobQueue
    let terminal: CursesTerminal
    let mailbox: Mailbox
    let themes: [Theme]
    let exitWhenDone: Bool
    /// Answers `.loadHistory`: reads the newest rows (synchronously: a page of an indexed
    /// table takes milliseconds) and returns the event that carries them or says why not.
    let loadHistory: (Int) -> MonitorEvent
    var state: MonitorState

    private var needsDraw = true
    private var lastDraw: ContinuousClock.Instant?
    private var quitResult: Bool?
    private var sawJobs = false
    /// The terminal hung up (its input reports POLLHUP or an error): it is left out of
    /// `poll()` from then on, which would otherwise return at once forever and spin.
    private var inputLost = false

    init(
        queue: JobQueue, terminal: CursesTerminal, mailbox: Mailbox, themes: [Theme], exitWhenDone: Bool,
        loadHistory: @escaping (Int) -> MonitorEvent, state: MonitorState
    ) {
        self.loadHistory = loadHistory
        self.queue = queue
        self.terminal = terminal
        self.mailbox = mailbox
        self.themes = themes
        self.exitWhenDone = exitWhenDone
        self.state = state
    }

    /// Loops until a `.quit` effect (or every job done with `exitWhenDone`); returns whether
    /// the user quit while jobs ran.
    mutating func run() -> Bool {
        while true {
            drawIfDue()
            if let quitResult { return quitResult }
            if exitWhenDone, sawJobs, state.isIdle {
                draw()
                return false
            }
            wait()
            processInput()
        }
    }

    /// Feeds one event to the state and performs its effects.
    mutating func apply(_ event: MonitorEvent) {
        for effect in state.handle(event) { perform(effect) }
    }

    // MARK: - Waiting

    /// Sleeps in `poll()` until input, an engine event, a signal, the next tick or the next
    /// allowed frame; with none of the last two pending it sleeps without a timeout.
    private mutating func wait() {
        var deadlines: [Duration] = []
        if let tick = state.nextTickTime {
            deadlines.append(.milliseconds(Int64(max(0, tick.timeIntervalSinceNow) * 1000)))
        }
        if needsDraw, let lastDraw {
            deadlines.append(max(.zero, MonitorSession.frameInterval - (ContinuousClock.now - lastDraw)))
        }
        let timeout = deadlines.min().map { Int32(clamping: $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000) } ?? -1
        var descriptors = [
            pollfd(fd: mailbox.readDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: terminal.signalDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        if !inputLost {
            descriptors.append(pollfd(fd: terminal.inputDescriptor, events: Int16(POLLIN), revents: 0))
        }
        // EINTR (SIGWINCH, our signals) just means: look at everything again.
        _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
        if !inputLost, Int32(descriptors[2].revents) & (POLLHUP | POLLERR | POLLNVAL) != 0 {
            // Like SIGHUP, which a vanished terminal does not always send: abort and wait.
            inputLost = true
            apply(.signal(.hangup))
        }
    }

    // MARK: - Input

    /// Keys first: under a flood of engine events, what the user typed still acts at once.
    private mutating func processInput() {
        for signal in terminal.takeSignals() {
            switch signal {
            case SIGINT: apply(.signal(.interrupt))
            case SIGTERM: apply(.signal(.terminate))
            case SIGHUP: apply(.signal(.hangup))
            default: break
            }
        }
        for key in terminal.readKeys() {
            if key == .resize {
                terminal.invalidate()
                apply(.resize(width: terminal.size.width, height: terminal.size.height))
            } else {
                apply(.key(key))
            }
        }
        for item in mailbox.drain() {
            switch item {
            case .engine(let event): apply(.engine(event))
            case .commandResult(let text): apply(.commandResult(text))
            }
        }
        if !state.queue.jobs.isEmpty { sawJobs = true }
        if let tick = state.nextTickTime, tick <= Date() {
            apply(.tick(Date()))
        }
    }

    // MARK: - Effects

    private mutating func perform(_ effect: MonitorEffect) {
        switch effect {
        case .abort(let job, let force):
            do {
                try queue.abort(job: job, force: force)
            } catch {
                apply(.commandResult(error.description))
            }
        case .abortAll(let force):
            queue.abortAll(force: force)
        case .cleanUp(let job):
            let (queue, mailbox) = (self.queue, self.mailbox)
            Task.detached {
                do {
                    try await queue.cleanUp(job: job)
                } catch {
                    mailbox.post(.commandResult("\(error)"))
                }
            }
        case .retry(let job):
            do {
                try queue.retry(job: job)
            } catch {
                apply(.commandResult(error.description))
            }
        case .loadHistory(let limit):
            apply(loadHistory(limit))
        case .quit(let abortRunning):
            quitResult = abortRunning
        case .redraw:
            needsDraw = true
        }
    }

    // MARK: - Drawing

    private mutating func drawIfDue() {
        guard needsDraw else { return }
        if let lastDraw, ContinuousClock.now - lastDraw < MonitorSession.frameInterval { return }
        draw()
    }

    private mutating func draw() {
        let theme = themes[min(state.themeIndex, themes.count - 1)]
        terminal.draw(MonitorRenderer.render(state, theme: theme))
        lastDraw = ContinuousClock.now
        needsDraw = false
    }
}
