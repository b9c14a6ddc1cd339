import Foundation
import InstallEngine
import Monitor
import MonitorRuntime
import Synchronization

/// A `MonitorLoop` on a thread of its own (the loop blocks in `poll`, as it does on the main
/// thread of `installtop`), with a fake terminal and link.
final class RunningLoop: Sendable {
    let terminal = FakeTerminal()
    let link: FakeLink
    /// What the board's `s` runs in this loop.
    let shells: FakeShellOpener
    private let outcome = Mutex<Bool?>(nil)
    /// Taken just before the loop starts: its patience for `.ready` counts from about then.
    let startedAt: ContinuousClock.Instant

    private let idleActionCount = Atomic<Int>(0)

    /// Starts the loop; `attached` is `installtop attach`'s mode; `clock`, when given, is the
    /// only time the loop sees (its state starts at the clock's time); `idleDelay`, when given,
    /// is the loop's `whenIdle` delay, and `idleActions` counts its runs.
    init(attached: Bool = false, clock: ManualClock? = nil, idleDelay: Duration? = nil) throws {
        link = FakeLink(jobsOutliveMonitor: attached)
        shells = FakeShellOpener(terminal: terminal)
        let mailbox = try Mailbox()
        link.start(posting: mailbox)
        var initial = MonitorState(width: 100, height: 30, now: clock?.now ?? Date())
        initial.isAttached = attached
        let state = initial
        let themes = ThemeCatalog(userDirectory: "/nonexistent/installtop-tests").themes
        let reading: @Sendable () -> Date
        if let clock { reading = clock.reading } else { reading = { Date() } }
        startedAt = ContinuousClock.now
        let thread = Thread { [self] in
            var loop = MonitorLoop(
                link: link, terminal: terminal, mailbox: mailbox, themes: themes, exitWhenDone: false, state: state,
                clock: reading, whenIdle: idleDelay.map { delay in (delay: delay, action: { [self] in idleActionCount.add(1, ordering: .relaxed) }) })
            loop.shells = shells
            let quitWhileRunning = loop.run()
            outcome.withLock { $0 = quitWhileRunning }
        }
        thread.start()
    }

    /// How many times the loop's `whenIdle` action ran.
    var idleActions: Int { idleActionCount.load(ordering: .relaxed) }

    /// `nil` while the loop runs; then whether it quit while jobs ran.
    var result: Bool? { outcome.withLock { $0 } }

    /// Queues a job of `updates` updates and starts its first update; `at` is the events' time.
    func startJob(_ id: Int, updates: Int = 1, at time: Date = Date()) {
        let descriptor = JobDescriptor(
            id: id, name: "Job \(id)", operation: .install,
            updates: (0..<updates).map { Update(id: "u\(id)-\($0)", installCommand: .argv(["true"])) }, stopOnFailure: false)
        link.post(.jobQueued(descriptor), at: time)
        link.post(.jobStarted(job: id), at: time)
        link.post(.updateStarted(job: id, index: 0, updateID: "u\(id)-0"), at: time)
    }
}
