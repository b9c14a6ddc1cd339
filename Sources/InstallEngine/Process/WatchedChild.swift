import CPosixSpawn
import Glibc

/// One child as `ChildPoller` watches it: its three pipes and the sink of each, its exit, the
/// drain after the exit and the outcome — in that order, so every line is handed on before the
/// outcome. Used only on the reactor's thread once handed over.
///
/// Completion is the child's exit, not end of file: a grandchild (`sleep 300 &`) may hold the
/// pipes open, and is killed with the rest of the group once the child is reaped
/// (`ChildProcess.reap`).
final class WatchedChild {
    /// Reads from one pipe per readiness before the poller looks at the other descriptors, so
    /// a flood on one stream can hide neither the child's exit nor other children.
    private static let readsPerWakeUp = 16
    /// What a paced child that floods rather than trickles gives within one interval: a
    /// quarter of a pipe's default buffer. At that rate a pause could fill a pipe and block
    /// the writer.
    private static let floodBytes = 16 * 1024
    /// How often a child held for its consumer is looked at again.
    static let backlogRecheck = Duration.milliseconds(10)

    /// Tells this child apart in the poller; its descriptors are slots 0–2 for the pipes
    /// (stdout, stderr, fd 3) and 3 for the pidfd.
    let id: UInt64
    let handle: ChildProcess
    private let child: SpawnedChild
    /// The child's pid, which is also its process group's id (it leads its own group).
    var pid: pid_t { child.pid }
    private let drainTimeout: Duration
    private let reactor: Reactor
    private var pipes: [WatchedPipe]
    /// The reactor's registration of each pipe (by index) and of the pidfd, while watched.
    private var registrations: [Reactor.Registration?] = [nil, nil, nil, nil]
    /// Progress lines of the current read of a progress channel, not handed on yet. Only one
    /// pipe is read at a time and each read ends with a flush, so one is enough.
    private var pendingProgress = ProgressCoalescer()
    private let afterReads: (@Sendable () -> Void)?
    private let consumerBacklog: (@Sendable () -> Int)?
    /// Its pipes are out of the epoll set until its consumer has caught up (`backlogLimit`).
    private var heldForConsumer = false
    private let afterReadsInterval: Duration
    /// Lines were handed on since `afterReads` was last called.
    private var readSinceFlush = false
    private var lastAfterReads: ContinuousClock.Instant?
    /// When the `afterReads` held back (it ran less than its interval ago) is due.
    private(set) var afterReadsDue: ContinuousClock.Instant?
    /// Pipes of a paced child read in this wake-up, out of the epoll set until `readsResume`.
    private var paused: [Bool] = [false, false, false]
    /// Bytes read from the pipes in this wake-up.
    private var readThisWakeUp = 0
    /// Bytes read since `windowStart`: a paced child's flood is told from a trickle by what it
    /// gives per interval, not per wake-up (a poller faster than the writer reads a flood in
    /// small pieces too).
    private var windowBytes = 0
    private var windowStart: ContinuousClock.Instant?
    /// The last whole interval gave `floodBytes` or more.
    private var floodedLastWindow = false
    /// When a paced child's paused pipes are watched again.
    private(set) var readsResume: ContinuousClock.Instant?
    /// Open until the exit is noticed; -1 after, or when there never was one.
    private var pidfd: Int32
    private var reaped: ChildProcess.ReapResult?
    /// When reading stops after the exit, whether or not the pipes reached end of file.
    private(set) var drainDeadline: ContinuousClock.Instant?

    static let pidfdSlot: UInt64 = 3

    init(id: UInt64, child: SpawnedChild, handle: ChildProcess, sinks: ChildSinks,
         maxLineBytes: Int, drainTimeout: Duration, reactor: Reactor) {
        self.id = id
        self.child = child
        self.handle = handle
        self.drainTimeout = drainTimeout
        self.reactor = reactor
        pidfd = child.pidfd
        afterReads = sinks.afterReads
        consumerBacklog = sinks.consumerBacklog
        afterReadsInterval = sinks.afterReadsInterval
        pipes = [
            WatchedPipe(sink: sinks.stdout, fd: child.stdoutRead, lines: LineAssembler(maxLineBytes: maxLineBytes)),
            WatchedPipe(sink: sinks.stderr, fd: child.stderrRead, lines: LineAssembler(maxLineBytes: maxLineBytes)),
            WatchedPipe(sink: sinks.channel, fd: child.progressRead, lines: LineAssembler(maxLineBytes: maxLineBytes)),
        ]
    }

    /// Whether a paced child floods: it gave `floodBytes` or more in the last interval or in
    /// this one so far. Its pipes are not paused and its lines are handed on as they are read
    /// (the interval would only make each batch bigger, and a batch of thousands of lines
    /// costs more per line than a pipe's worth).
    private var isFlooding: Bool { floodedLastWindow || windowBytes >= Self.floodBytes }

    /// Whether its pipes are read at most every `afterReadsInterval` (see `ChildSinks`).
    private var isPaced: Bool { afterReadsInterval > .zero }

    /// Whether the exit is found with `waitpid(WNOHANG)` rather than the pidfd (no pidfd).
    var needsExitChecks: Bool { reaped == nil && pidfd < 0 }

    /// Whether the child was reaped and is draining its pipes.
    var hasExited: Bool { reaped != nil }

    // MARK: - Registration

    /// Registers the pipes and the pidfd with the reactor, each calling `ready` with its slot,
    /// or returns why not (then `abandon` cancels what it registered).
    func register(_ ready: @escaping @Sendable (_ slot: UInt64) -> Void) -> SystemError? {
        let watched = pipes.indices.map { (fd: pipes[$0].fd, slot: UInt64($0)) } + [(fd: pidfd, slot: Self.pidfdSlot)]
        for (fd, slot) in watched where fd >= 0 {
            do {
                // A paced child's pipes are watched once per read (`pauseReads`); its pidfd always.
                registrations[Int(slot)] = try reactor.register(fd, oneShot: isPaced && slot != Self.pidfdSlot) { _ in
                    ready(slot)
                }
            } catch {
                return error
            }
        }
        return nil
    }

    /// Cancels the registration in `slot`, if any. On the reactor's thread this waits for
    /// nothing; from `abandon`, on the thread that failed to hand the child over, it may wait
    /// for a handler of this child that runs now (which finds no child and returns).
    private func unregister(_ slot: Int) {
        guard let registration = registrations[slot] else { return }
        reactor.cancel(registration)
        registrations[slot] = nil
    }

    /// Gives up on a child the poller could not take: kills its group, reaps it and closes the
    /// descriptors. Nothing is reported.
    func abandon() {
        for index in registrations.indices { unregister(index) }
        handle.kill()
        _ = handle.reap(blocking: true)
        for pipe in pipes where pipe.fd >= 0 { close(pipe.fd) }
        if pidfd >= 0 { close(pidfd) }
        pipes.removeAll()
    }

    // MARK: - Events

    /// The descriptor in `slot` is ready: reads a pipe, or reaps the child when it is the pidfd.
    func descriptorReady(slot: UInt64, buffer: UnsafeMutableBufferPointer<UInt8>) {
        if slot == Self.pidfdSlot {
            // A readable pidfd means the child is a zombie: this wait does not block.
            exited(handle.reap(blocking: true) ?? .statusLost, buffer: buffer)
        } else if Int(slot) < pipes.count, pipes[Int(slot)].fd >= 0 {
            // A paced child's pipe is reported once: out of the set until `resumeReads`,
            // whatever the read finds. After the exit it is watched again at once: the drain
            // reads as fast as the pipes give.
            if isPaced { paused[Int(slot)] = true }
            readAvailable(from: Int(slot), buffer: buffer)
            if isPaced, reaped != nil { rearm(Int(slot)) }
        }
    }

    /// After a wake-up that read the child: one whose consumer is `backlogLimit` lines behind is
    /// held until it catches up (`holdForConsumer`). Otherwise, for a paced child: unless it
    /// floods, the pipes read stay out of the epoll set for the interval (its next lines wait
    /// in the pipe, and come together); a flooding child's, or one read promptly
    /// (`ChildProcess.readPromptly`), are watched again at once. Called before `flushReads`.
    func pauseReads(now: ContinuousClock.Instant) {
        defer { readThisWakeUp = 0 }
        guard reaped == nil else { return }
        if let consumerBacklog, consumerBacklog() >= ChildSinks.backlogLimit {
            holdForConsumer(now: now)
            return
        }
        guard isPaced else { return }
        if let start = windowStart, start.duration(to: now) < afterReadsInterval {
            windowBytes += readThisWakeUp
        } else {
            if windowStart != nil { floodedLastWindow = windowBytes >= Self.floodBytes }
            windowStart = now
            windowBytes = readThisWakeUp
        }
        if isFlooding || handle.readsPromptly {
            for index in pipes.indices where paused[index] { rearm(index) }
        } else if readsResume == nil, paused.contains(true) {
            readsResume = now + afterReadsInterval
        }
    }

    /// Watches the paused pipes again once `readsResume` has come (at once with `force`).
    func resumeReads(now: ContinuousClock.Instant, force: Bool = false) {
        if !force {
            guard let resume = readsResume, now >= resume else { return }
            if heldForConsumer, let consumerBacklog, consumerBacklog() > ChildSinks.backlogLimit / 2 {
                readsResume = now + Self.backlogRecheck
                return
            }
        }
        readsResume = nil
        heldForConsumer = false
        for index in pipes.indices where paused[index] { rearm(index) }
    }

    /// Its consumer is `backlogLimit` lines behind: every pipe leaves the epoll set (the child
    /// blocks in its `write` once a pipe is full) until `resumeReads` finds it caught up.
    private func holdForConsumer(now: ContinuousClock.Instant) {
        heldForConsumer = true
        readsResume = now + Self.backlogRecheck
        for index in pipes.indices where !paused[index] {
            paused[index] = true
            guard let registration = registrations[index] else { continue }
            reactor.hold(registration)
        }
    }

    private func rearm(_ index: Int) {
        paused[index] = false
        guard let registration = registrations[index] else { return }
        // A paced child's pipes are watched for one report; the others' as they were added.
        reactor.watch(registration, oneShot: isPaced)
    }

    /// For a child without a pidfd: reaps it if it has exited.
    func checkExit(buffer: UnsafeMutableBufferPointer<UInt8>) {
        guard needsExitChecks, let result = handle.reap(blocking: false) else { return }
        exited(result, buffer: buffer)
    }

    /// Settles the outcome once the pipes are at end of file or the drain deadline passed
    /// (a process that escaped the group may still hold a pipe). Returns whether it settled.
    func settleIfDrained(now: ContinuousClock.Instant) -> Bool {
        guard let reaped, let drainDeadline else { return false }
        guard pipes.allSatisfy({ $0.fd < 0 }) || now >= drainDeadline else { return false }
        for index in pipes.indices { closePipe(index) }

        let outcome: UpdateRunOutcome
        switch reaped {
        case .status(let status) where cps_wait_signaled(status) != 0:
            outcome = .signaled(cps_wait_term_signal(status))
        case .status(let status):
            outcome = .exited(cps_wait_exit_code(status))
        case .statusLost:
            var note = "installtop: the exit status of pid \(child.pid) was lost: another part of this process reaped it (SIGCHLD ignored?)"
            let sink = pipes[Self.stderrIndex].sink
            note.withUTF8 { hand($0, to: sink) }
            flushProgress(to: sink)
            readSinceFlush = true
            outcome = .exited(-1)
        }
        // Every line, the note above included, is handed on before the outcome.
        flushReads(now: now, force: true)
        handle.resolve(outcome)
        return true
    }

    /// Calls the sinks' `afterReads` if lines were handed on since it was last called, unless
    /// it ran less than its interval ago (then `afterReadsDue` says when); with `force`, at
    /// once. The poller calls it at the end of every wake-up.
    func flushReads(now: ContinuousClock.Instant, force: Bool = false) {
        guard readSinceFlush else {
            afterReadsDue = nil
            return
        }
        if !force, !isFlooding, let last = lastAfterReads, last.duration(to: now) < afterReadsInterval {
            afterReadsDue = last + afterReadsInterval
            return
        }
        readSinceFlush = false
        afterReadsDue = nil
        guard let afterReads else { return }
        afterReads()
        // The interval runs from the end of the call, not from the wake-up: calls are at least
        // that far apart however long one takes, or however late it starts on a loaded machine.
        lastAfterReads = .now
    }

    /// The child is reaped and its group killed: stop watching the pidfd, start the drain, and
    /// read what is there already (usually everything, so the outcome can settle at once).
    private func exited(_ result: ChildProcess.ReapResult, buffer: UnsafeMutableBufferPointer<UInt8>) {
        guard reaped == nil else { return }
        reaped = result
        if pidfd >= 0 {
            unregister(Int(Self.pidfdSlot))
            close(pidfd)
            pidfd = -1
        }
        drainDeadline = .now + drainTimeout
        // The drain reads as fast as the pipes give.
        resumeReads(now: .now, force: true)
        for index in pipes.indices where pipes[index].fd >= 0 { readAvailable(from: index, buffer: buffer) }
    }

    // MARK: - Reading

    private func readAvailable(from index: Int, buffer: UnsafeMutableBufferPointer<UInt8>) {
        for _ in 0..<Self.readsPerWakeUp {
            let count = read(pipes[index].fd, buffer.baseAddress, buffer.count)
            if count > 0 {
                readThisWakeUp += count
                consume(UnsafeBufferPointer(rebasing: buffer[..<count]), from: index)
                continue
            }
            if count < 0 {
                let code = cps_errno()
                if code == EINTR { continue }
                if code == EAGAIN || code == EWOULDBLOCK { return }
            }
            closePipe(index)
            return
        }
    }

    private func consume(_ chunk: UnsafeBufferPointer<UInt8>, from index: Int) {
        readSinceFlush = true
        let sink = pipes[index].sink
        pipes[index].lines.feed(chunk) { line in hand(line, to: sink) }
        flushProgress(to: sink)
    }

    /// Hands the unfinished last line of the pipe on and closes it. Safe to call twice.
    private func closePipe(_ index: Int) {
        guard pipes[index].fd >= 0 else { return }
        // Cancelled explicitly: a spawn in progress elsewhere may hold a copy of the descriptor
        // for a moment, and epoll forgets a descriptor only when every copy is closed.
        unregister(index)
        close(pipes[index].fd)
        pipes[index].fd = -1
        let sink = pipes[index].sink
        pipes[index].lines.finish { line in
            readSinceFlush = true
            hand(line, to: sink)
        }
        flushProgress(to: sink)
    }

    // MARK: - Sinks

    /// The index of stderr in `pipes`, where installtop's own notes about the child go.
    private static let stderrIndex = 1

    private func hand(_ line: UnsafeBufferPointer<UInt8>, to sink: ChildLineSink) {
        switch sink {
        case .text(let sink):
            sink(String(decoding: line, as: UTF8.self))
        case .bytes(let sink):
            sink(line)
        case .progressChannel(let reporter):
            guard let report = ProgressChannelParser.parse(bytes: line) else { return }
            if case .progress(let percent, let message) = report {
                pendingProgress.add(percent: percent, message: message)
            } else {
                flushProgress(to: sink)
                reporter.report(report)
            }
        }
    }

    /// Hands on the progress merged from the last read of a progress channel.
    private func flushProgress(to sink: ChildLineSink) {
        guard case .progressChannel(let reporter) = sink, let progress = pendingProgress.take() else { return }
        reporter.report(progress)
    }
}
