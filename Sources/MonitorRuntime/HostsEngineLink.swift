#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineDaemon
import EngineWire
import Glibc
import InstallEngine
import Monitor
import Synchronization

/// The grouped board (`installtop attach --host NAME… / --hosts FILE`): every host's engine
/// reached as `ssh HOST installtop bridge`, their queues on one monitor.
///
/// One thread serves every host, whatever their number: it polls each ssh child's stdout and
/// stderr (and a wake-up pipe), reads what is ready (at most 64 KiB per host and turn, so a
/// chatty host cannot starve the others), renumbers the hosts' jobs for the board
/// (`BoardJobNumbers`) and posts them, tagged with their host, into the one mailbox; then it
/// rests until 10 ms have passed since the turn's poll, unless a read filled its 64 KiB
/// (`turnInterval`: one poll of 200 hosts' 400 pipes costs about 100 µs, and 200 engines'
/// events woke it 2,600 times a second, 26–32 % of a core, for a board drawn 30 times a
/// second; with the rests, the board's loop and link take 6 %). Nothing on it ever waits for
/// one host: reads happen only when poll says so, writes only when ssh's stdin has room (else
/// the command is refused with a message), so a hung or slow host holds up neither the board
/// nor the others.
///
/// A host whose link fails (ssh exits: unreachable, refused, no engine there) is shown
/// unreachable with ssh's last stderr line, its jobs kept as stale, and is tried again after
/// `HostRetrySchedule`'s wait (1 s doubling to 30 s); when it answers, its queue replaces the
/// stale one. A host whose ssh stays up while its engine says nothing (stopped, hung) is asked
/// whether it is alive and shown silent, its jobs stale, when it does not answer
/// (`EngineHeartbeat`); it is current again at its next byte. The link never ends the
/// monitor: there is no `.linkLost`.
public final class HostsEngineLink: EngineLink {
    private struct State {
        var hosts: [HostConnection]
        var numbers = BoardJobNumbers()
        var durations: [String: TimeInterval] = [:]
        var stopped = false
        var mailbox: Mailbox?
    }

    private let state: Mutex<State>
    /// Written to wake the thread (a stop; nothing else needs it before its next timeout).
    private let wakeRead: Int32
    private let wakeWrite: Int32
    /// Bytes read from one descriptor per turn.
    private static let readSize = 64 * 1024
    /// The shortest time from one turn's poll to the next, unless a read filled `readSize`
    /// (more is waiting: a large snapshot is read without rests). What arrives meanwhile waits
    /// in the pipes and is read in one go; a stop ends the rest at once.
    private static let turnInterval = Duration.milliseconds(10)
    /// How long ssh may take to exit and say why once its stdout ended.
    private static let exitWait = Duration.seconds(2)
    /// Heartbeats fall due on whole seconds since this instant (`onHeartbeatGrid`).
    private let heartbeatEpoch = ContinuousClock.now

    /// The `apt upgrade` job a rollout submits to each host (`upgrade(onHost:)`); `nil`: none.
    private let upgradeJob: (@Sendable (_ full: Bool, _ confirmSeconds: Double?) -> JobSubmission)?

    /// A board of `hosts`, in that order (the first appearance of a name counts).
    /// - Parameters:
    ///   - retry: the waits between tries of an unreachable host.
    ///   - upgradeJob: what a rollout sends each host (`installtop attach` makes it with the
    ///     apt kind, which this module does not know); `nil` refuses rollouts.
    public init(hosts: [SSHCommand], retry: HostRetrySchedule = HostRetrySchedule(), upgradeJob: (@Sendable (_ full: Bool, _ confirmSeconds: Double?) -> JobSubmission)? = nil) {
        self.upgradeJob = upgradeJob
        var seen = Set<String>()
        let connections = hosts.filter { seen.insert($0.host).inserted }.map { command -> HostConnection in
            var connection = HostConnection(command: command)
            connection.retry = retry
            return connection
        }
        state = Mutex(State(hosts: connections))
        var pipe: [Int32] = [-1, -1]
        if Glibc.pipe(&pipe) == 0 {
            for descriptor in pipe {
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            }
        }
        wakeRead = pipe[0]
        wakeWrite = pipe[1]
    }

    deinit {
        if wakeRead >= 0 { close(wakeRead) }
        if wakeWrite >= 0 { close(wakeWrite) }
    }

    public var jobsOutliveMonitor: Bool { true }

    public func start(posting mailbox: Mailbox) {
        let names = state.withLock { state in
            state.mailbox = mailbox
            return state.hosts.map(\.host)
        }
        mailbox.post(contentsOf: [.monitor(.host(.hosts(names))), .ready])
        EngineThread.detach(named: "installtop-board") { [self] in run(mailbox) }
    }

    /// Sends `command` to the host of its job, with the host's job number. The board's `A`
    /// sends one abort per job of the selected host; an `abortAll` (no host of its own) goes to
    /// every host whose link is up. A host that is unreachable or not reading is not waited
    /// for: the status line says the command was not sent.
    public func perform(_ command: JobCommand) {
        let messages = state.withLock { state -> [String] in
            if case .abortAll = command {
                return state.hosts.indices.compactMap { index in
                    state.hosts[index].send(.job(command), as: .command) ? nil : "\(state.hosts[index].host): not reachable, its jobs were not told"
                }
            }
            guard let (host, routed) = state.numbers.route(command) else { return ["That job is no longer on the board"] }
            guard let index = state.hosts.firstIndex(where: { $0.host == host }) else { return [] }
            return state.hosts[index].send(.job(routed), as: .command) ? [] : ["\(host): not reachable now, nothing was sent"]
        }
        post(messages.map { .commandResult($0) })
    }

    /// A board has no one engine: the job goes to no host (`submit(name:updates:onHost:)` does).
    public func submit(name: String, updates: [Update]) {
        post([.commandResult("Which host? Select one of its jobs first")])
    }

    public func submit(name: String, updates: [Update], onHost host: String) {
        let sent = state.withLock { state -> Bool in
            guard let index = state.hosts.firstIndex(where: { $0.host == host }) else { return false }
            let job = JobSubmission(name: name, operation: .install, updates: updates, stopOnFailure: false)
            return state.hosts[index].send(.submit([job]), as: .command)
        }
        if !sent { post([.commandResult("\(host): not reachable now, nothing was sent")]) }
    }

    public func upgrade(onHost host: String, full: Bool, confirmSeconds: Double?) -> String? {
        guard let upgradeJob else { return "this board cannot submit apt upgrades" }
        let job = upgradeJob(full, confirmSeconds)
        let sent = state.withLock { state -> Bool in
            guard let index = state.hosts.firstIndex(where: { $0.host == host }) else { return false }
            return state.hosts[index].send(.submit([job]), as: .upgrade)
        }
        return sent ? nil : "\(host): not reachable now, its upgrade was not sent"
    }

    public func loadHistory(limit: Int) {
        post([.monitor(.historyUnavailable("The board has no history of its own: h on a host shows that host's"))])
    }

    public func loadJobRuns(limit: Int) {
        post([.monitor(.jobRunsUnavailable("The board has no history of its own: h on a host shows its runs, and u undoes one there"))])
    }

    /// A run is undone on its host (`undo(run:onHost:)`): one of no host is refused, saying so.
    public func undo(run: Int) {
        post([.commandResult("the board undoes a run on its host: h on the host, Tab, then u")])
    }

    /// `s` on the board: how `host` is reached, for its shell and the keeping of its recording.
    public func sshCommand(ofHost host: String) -> SSHCommand? {
        state.withLock { state in state.hosts.first { $0.host == host }?.command }
    }

    /// `h` on the board: `host`'s engine's history; the rows come back as `HostEvent.history`.
    public func loadHistory(limit: Int, onHost host: String) {
        send(.history(limit: limit), as: .history, to: host) { .monitor(.host(.history(host, .unavailable($0)))) }
    }

    /// The runs list of a host's history view; the runs come back as `HostEvent.jobRuns`.
    public func loadJobRuns(limit: Int, onHost host: String) {
        send(.runs(limit: limit), as: .runs, to: host) { .monitor(.host(.jobRuns(host, .unavailable($0)))) }
    }

    /// `host`'s engine plans the undo of its run `run`; the job comes back as the host's,
    /// awaiting confirmation, a refusal as the host's reason in the status line.
    public func undo(run: Int, onHost host: String) {
        send(.undo(run: run), as: .command, to: host) { .commandResult($0) }
    }

    /// `K` on the board, or a fresh login that worked: `host`'s engine keeps its run `run`.
    public func keep(run: Int, onHost host: String?) {
        guard let host else {
            post([.commandResult("Which host? K keeps the selected host's run")])
            return
        }
        send(.confirmRun(run: run, extend: nil), as: .keep, to: host) { .commandResult($0) }
    }

    /// A fresh ssh login to `host`, on a thread of its own (it takes up to 30 s); its end is
    /// posted as `HostEvent.freshLogin`.
    public func checkFreshLogin(run: Int, onHost host: String) {
        guard let ssh = sshCommand(ofHost: host) else { return }
        EngineThread.detach(named: "installtop-fresh-login") { [self] in
            post([.monitor(.host(.freshLogin(host, run: run, failure: FreshLogin.check(ssh))))])
        }
    }

    /// `P` on the board: the refresh job of `host`; its snapshot follows the job.
    public func refreshLists(onHost host: String) {
        send(.refresh, as: .refresh, to: host) { _ in .monitor(.host(.refreshRefused(host, reason: "not reachable now, nothing was sent"))) }
    }

    /// Sends `wire` to `host`'s engine; when it cannot be sent now, posts `unsent` with why.
    private func send(_ wire: WireCommand, as request: HostConnection.Request, to host: String,
                      unsent: (String) -> MailboxItem) {
        let sent = state.withLock { state -> Bool in
            guard let index = state.hosts.firstIndex(where: { $0.host == host }) else { return false }
            return state.hosts[index].send(wire, as: request)
        }
        if !sent { post([unsent("\(host): not reachable now, nothing was sent")]) }
    }

    /// Stops the thread and ends every ssh child: its stdin closed (the bridge on the host sees
    /// the end), then, after at most 2 s for all of them, killed.
    public func stop() {
        let children = state.withLock { state -> [PipedChild] in
            state.stopped = true
            state.mailbox = nil
            defer { for index in state.hosts.indices { state.hosts[index].child = nil } }
            return state.hosts.compactMap(\.child)
        }
        wake()
        for child in children { child.closeInput() }
        let deadline = ContinuousClock.now + Self.exitWait
        for child in children where child.wait(timeout: max(.zero, deadline - .now)) == nil {
            child.end(grace: .zero)
        }
    }

    // MARK: - Thread

    private func post(_ items: [MailboxItem]) {
        guard !items.isEmpty, let mailbox = state.withLock({ $0.mailbox }) else { return }
        mailbox.post(contentsOf: items)
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    /// What the thread polls: a descriptor, and whose it is.
    private enum Source {
        case wake
        case stdout(host: Int, child: PipedChild)
        case stderr(host: Int, child: PipedChild)
    }

    private func run(_ mailbox: Mailbox) {
        var buffer = [UInt8](repeating: 0, count: Self.readSize)
        while true {
            startDueHosts()
            guard let (sources, timeout) = prepareTurn() else { return }
            var descriptors = sources.map { source -> pollfd in
                switch source {
                case .wake: return pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
                case .stdout(_, let child): return pollfd(fd: child.stdoutRead, events: Int16(POLLIN), revents: 0)
                case .stderr(_, let child): return pollfd(fd: child.stderrRead, events: Int16(POLLIN), revents: 0)
                }
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            let polledAt = ContinuousClock.now
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { continue }
            var filled = false
            for (source, descriptor) in zip(sources, descriptors) where descriptor.revents != 0 {
                switch source {
                case .wake:
                    while Glibc.read(wakeRead, &buffer, buffer.count) > 0 {}
                case .stdout(let host, let child):
                    let count = buffer.withUnsafeMutableBytes { Glibc.read(child.stdoutRead, $0.baseAddress, $0.count) }
                    if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                    filled = filled || count == buffer.count
                    readStdout(host: host, child: child, bytes: count > 0 ? buffer[..<count] : nil)
                case .stderr(let host, let child):
                    let count = buffer.withUnsafeMutableBytes { Glibc.read(child.stderrRead, $0.baseAddress, $0.count) }
                    if count < 0 && (errno == EINTR || errno == EAGAIN) { continue }
                    state.withLock { state in
                        guard state.hosts[host].child === child else { return }
                        if count > 0 { state.hosts[host].appendStderr(buffer[..<count]) } else { state.hosts[host].stderrEnded = true }
                    }
                }
            }
            if !filled { rest(until: polledAt + Self.turnInterval) }
        }
    }

    /// Waits until `instant`, or until the wake-up pipe is written (a stop), whichever comes
    /// first; the next turn's poll drains the pipe.
    private func rest(until instant: ContinuousClock.Instant) {
        let left = instant - .now
        guard left > .zero else { return }
        var wakeUp = pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)
        _ = poll(&wakeUp, 1, Int32(clamping: left.wholeMilliseconds + 1))
    }

    /// Starts ssh for every host whose try is due (outside the lock: spawning takes a while,
    /// and the monitor's commands must not wait for it).
    private func startDueHosts() {
        let due = state.withLock { state -> [(Int, SSHCommand)] in
            guard !state.stopped else { return [] }
            let now = ContinuousClock.now
            return state.hosts.indices.compactMap { index in
                guard state.hosts[index].child == nil, let at = state.hosts[index].retryAt, at <= now else { return nil }
                return (index, state.hosts[index].command)
            }
        }
        guard !due.isEmpty else { return }
        var items: [MailboxItem] = []
        for (index, command) in due {
            let child: PipedChild
            do {
                child = try PipedChild(arguments: command.arguments)
            } catch {
                items += state.withLock { state in failed(&state, index, reason: error.description) }
                continue
            }
            let stopped = state.withLock { state -> Bool in
                guard !state.stopped else { return true }
                state.hosts[index].started(child)
                _ = state.hosts[index].send(.subscribe, as: .command)
                return false
            }
            if stopped {
                child.closeInput()
                child.end(grace: .zero)
                return
            }
            items.append(.monitor(.host(.connecting(command.host))))
        }
        post(items)
    }

    /// Ends the links whose ssh has said its last, asks silent engines whether they are alive,
    /// and lists what to poll and for how long (until the next try, ending or question is
    /// due); `nil` once stopped.
    private func prepareTurn() -> (sources: [Source], timeout: Int32)? {
        var items: [MailboxItem] = []
        let turn = state.withLock { state -> (sources: [Source], timeout: Int32)? in
            guard !state.stopped else { return nil }
            let now = ContinuousClock.now
            var sources: [Source] = [.wake]
            var next: ContinuousClock.Instant?
            for index in state.hosts.indices {
                if let deadline = state.hosts[index].endingDeadline, state.hosts[index].stderrEnded || deadline <= now,
                   let child = state.hosts[index].child {
                    let status = child.wait(timeout: .zero) ?? child.end(grace: .zero)
                    items += failed(&state, index, reason: state.hosts[index].failureReason(status: status))
                }
                items += state.hosts[index].checkHeartbeat(at: now)
                let host = state.hosts[index]
                if let child = host.child {
                    if !host.stdoutEnded { sources.append(.stdout(host: index, child: child)) }
                    if !host.stderrEnded { sources.append(.stderr(host: index, child: child)) }
                }
                let heartbeat = host.endingDeadline == nil ? host.heartbeat?.nextDue.map(onHeartbeatGrid) : nil
                for instant in [host.retryAt, host.endingDeadline, heartbeat].compactMap({ $0 }) where next.map({ instant < $0 }) ?? true {
                    next = instant
                }
            }
            var timeout: Int32 = -1
            if let next {
                let left = max(.zero, next - now)
                timeout = Int32(clamping: left.wholeMilliseconds + 1)
            }
            return (sources, timeout)
        }
        post(items)
        return turn
    }

    /// `instant` put off to the next whole second since the link was made: the questions to
    /// idle hosts go out, and their answers come back, in a turn or two a second, rather than
    /// in a turn of their own for each host (every turn looks at every host: 200 idle hosts
    /// cost 0.5 % of a core so).
    private func onHeartbeatGrid(_ instant: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let since = instant - heartbeatEpoch
        return heartbeatEpoch + .seconds(since.components.seconds + (since.components.attoseconds > 0 ? 1 : 0))
    }

    /// Host `index`'s link failed for `reason`: its child is gone, its next try scheduled.
    private func failed(_ state: inout State, _ index: Int, reason: String) -> [MailboxItem] {
        let wait = state.hosts[index].retry.failed()
        state.hosts[index].child = nil
        state.hosts[index].endingDeadline = nil
        state.hosts[index].snapshot = nil
        state.hosts[index].heartbeat = nil
        state.hosts[index].retryAt = .now + wait
        let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
        return [.monitor(.host(.unreachable(state.hosts[index].host, reason: reason, retryAt: Date().addingTimeInterval(seconds))))]
    }

    /// Hands what host `index`'s engine sent to the monitor; `nil` bytes: its stdout ended.
    private func readStdout(host index: Int, child: PipedChild, bytes: ArraySlice<UInt8>?) {
        let items = state.withLock { state -> [MailboxItem] in
            guard state.hosts[index].child === child else { return [] }
            guard let bytes else {
                state.hosts[index].stdoutEnded = true
                state.hosts[index].endingDeadline = .now + Self.exitWait
                return []
            }
            var items = state.hosts[index].heard(at: .now)
            let lines = bytes.withUnsafeBytes { state.hosts[index].lines.append($0) }
            for line in lines {
                guard case .complete(let text) = line, let message = try? ServerMessage.decode(text) else { continue }
                items += state.hosts[index].received(message, numbers: &state.numbers, durations: &state.durations)
            }
            return items
        }
        post(items)
    }
}
