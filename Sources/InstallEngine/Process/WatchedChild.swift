import CPosixSpawn
import Glibc

/// Watches one child on a thread of its own: reads its three pipes, reports what it says,
/// notices its exit, reaps it, clears its process group, drains the pipes and settles the
/// outcome — in that order, so every report comes before the outcome.
///
/// Completion is the child's exit, not end of file: a grandchild (`sleep 300 &`) may hold the
/// pipes open, and is killed with the rest of the group once the child is reaped.
final class ChildProcessMonitor {
    /// The most bytes read at once; also the most bytes of fd 3 whose progress lines merge.
    private static let readSize = 64 * 1024
    /// Reads from one pipe before looking at the others and at the child again, so a flood
    /// on one stream cannot hide the child's exit.
    private static let readsPerWakeUp = 16
    /// How often to look for the exit when there is no pidfd to poll.
    private static let exitCheckIntervalMilliseconds: Int32 = 20

    private let child: SpawnedChild
    private let handle: ProcessRunningUpdate
    private let reporter: any UpdateReporter
    private let drainTimeout: Duration
    private var pipes: [MonitoredPipe]
    private var pendingProgress = ProgressCoalescer()
    private let buffer: UnsafeMutableBufferPointer<UInt8>

    init(child: SpawnedChild, handle: ProcessRunningUpdate, reporter: any UpdateReporter,
         maxLineBytes: Int, drainTimeout: Duration) {
        self.child = child
        self.handle = handle
        self.reporter = reporter
        self.drainTimeout = drainTimeout
        pipes = [
            MonitoredPipe(role: .output(.stdout), fd: child.stdoutRead, lines: LineAssembler(maxLineBytes: maxLineBytes)),
            MonitoredPipe(role: .output(.stderr), fd: child.stderrRead, lines: LineAssembler(maxLineBytes: maxLineBytes)),
            MonitoredPipe(role: .channel, fd: child.progressRead, lines: LineAssembler(maxLineBytes: maxLineBytes)),
        ]
        buffer = .allocate(capacity: Self.readSize)
    }

    deinit {
        buffer.deallocate()
    }

    // MARK: - Thread

    /// Runs `monitor` on a new detached thread, or returns why no thread could be made.
    static func startThread(for monitor: ChildProcessMonitor) -> SystemError? {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        let context = Unmanaged.passRetained(monitor).toOpaque()
        var thread = pthread_t()
        let code = pthread_create(&thread, &attributes, { context in
            Unmanaged<ChildProcessMonitor>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard code == 0 else {
            Unmanaged<ChildProcessMonitor>.fromOpaque(context).release()
            return SystemError(code: code)
        }
        return nil
    }

    /// Gives up on a child whose monitor thread could not start: kills its group, reaps it
    /// and closes the pipes. Nothing is reported.
    func abandon() {
        handle.kill()
        _ = handle.reap(blocking: true)
        for pipe in pipes where pipe.fd >= 0 { close(pipe.fd) }
        if child.pidfd >= 0 { close(child.pidfd) }
        pipes.removeAll()
    }

    private func run() {
        // Signals are for the engine's own threads (the CLI turns SIGINT into an abort).
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        pthread_sigmask(SIG_BLOCK, &allSignals, nil)

        let reaped = watchUntilExit()
        drainPipes()
        for index in pipes.indices { closePipe(index) }
        if child.pidfd >= 0 { close(child.pidfd) }

        let outcome: UpdateRunOutcome
        switch reaped {
        case .status(let status) where cps_wait_signaled(status) != 0:
            outcome = .signaled(cps_wait_term_signal(status))
        case .status(let status):
            outcome = .exited(cps_wait_exit_code(status))
        case .statusLost:
            reporter.report(.output(.stderr, "installtop: the exit status of pid \(child.pid) was lost: another part of this process reaped it (SIGCHLD ignored?)"))
            outcome = .exited(-1)
        }
        handle.resolve(outcome)
    }

    // MARK: - Phases

    private func watchUntilExit() -> ProcessRunningUpdate.ReapResult {
        var fds = [pollfd](repeating: pollfd(), count: 4)
        while true {
            for index in pipes.indices { fds[index] = pollfd(fd: pipes[index].fd, events: Int16(POLLIN), revents: 0) }
            fds[3] = pollfd(fd: child.pidfd, events: Int16(POLLIN), revents: 0)
            let timeout = child.pidfd >= 0 ? -1 : Self.exitCheckIntervalMilliseconds
            let ready = poll(&fds, 4, timeout)
            if ready < 0, cps_errno() != EINTR {
                // poll itself failed (out of memory): keep watching the exit, slowly.
                _ = poll(nil, 0, Self.exitCheckIntervalMilliseconds)
                if let reaped = handle.reap(blocking: false) { return reaped }
                continue
            }
            if ready > 0 {
                for index in pipes.indices where fds[index].revents != 0 { readAvailable(from: index) }
            }
            if child.pidfd >= 0 {
                if ready > 0, fds[3].revents != 0 { return handle.reap(blocking: true) ?? .statusLost }
            } else if let reaped = handle.reap(blocking: false) {
                return reaped
            }
        }
    }

    /// After the exit: reads what is left until every pipe is at end of file, or the drain
    /// timeout passed (a process that escaped the group may still hold a pipe).
    private func drainPipes() {
        let deadline = ContinuousClock.now + drainTimeout
        var fds = [pollfd](repeating: pollfd(), count: 3)
        while pipes.contains(where: { $0.fd >= 0 }) {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { return }
            for index in pipes.indices { fds[index] = pollfd(fd: pipes[index].fd, events: Int16(POLLIN), revents: 0) }
            let milliseconds = Int32(min(remaining / .milliseconds(1), 60_000).rounded(.up))
            guard poll(&fds, 3, milliseconds) > 0 else { continue }
            for index in pipes.indices where fds[index].revents != 0 { readAvailable(from: index) }
        }
    }

    // MARK: - Reading

    private func readAvailable(from index: Int) {
        for _ in 0..<Self.readsPerWakeUp {
            let count = read(pipes[index].fd, buffer.baseAddress, buffer.count)
            if count > 0 {
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
        switch pipes[index].role {
        case .output(let stream):
            pipes[index].lines.feed(chunk) { line in reportOutput(line, on: stream) }
        case .channel:
            pipes[index].lines.feed(chunk) { line in reportChannelLine(line) }
            flushProgress()
        }
    }

    /// Reports the unfinished last line of the pipe and closes it. Safe to call twice.
    private func closePipe(_ index: Int) {
        guard pipes[index].fd >= 0 else { return }
        close(pipes[index].fd)
        pipes[index].fd = -1
        switch pipes[index].role {
        case .output(let stream):
            pipes[index].lines.finish { line in reportOutput(line, on: stream) }
        case .channel:
            pipes[index].lines.finish { line in reportChannelLine(line) }
            flushProgress()
        }
    }

    // MARK: - Reporting

    private func reportOutput(_ line: UnsafeBufferPointer<UInt8>, on stream: StandardStream) {
        reporter.report(.output(stream, String(decoding: line, as: UTF8.self)))
    }

    private func reportChannelLine(_ line: UnsafeBufferPointer<UInt8>) {
        guard let report = ProgressChannelParser.parse(bytes: line) else { return }
        if case .progress(let percent, let message) = report {
            pendingProgress.add(percent: percent, message: message)
        } else {
            flushProgress()
            reporter.report(report)
        }
    }

    private func flushProgress() {
        if let progress = pendingProgress.take() { reporter.report(progress) }
    }
}
