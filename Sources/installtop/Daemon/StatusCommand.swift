import ArgumentParser
import EngineDaemon
import EngineWire
import InstallEngine

/// `installtop status`: one snapshot of the engine's queue.
struct StatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Print the running engine's queue once: every job and update with its state.",
        discussion: """
            With --host or --hosts, every selected host is asked at once over ssh (at most \(hostsAtOnce) at a \
            time, each given \(hostDeadline.components.seconds) s); the text is a section per host (== NAME ==), \
            its tables or `unreachable:` and ssh's own words; --json is one document \
            {"hosts":[{"host","reachable","jobs"|"error"}]}, each host's jobs as local --json gives them. \
            The commit-confirmed runs (--confirm) still open in the engine's history follow the tables \
            (Armed runs …; a host's as its engine pushes them), and --json adds \
            "armed":[{"run","state","deadline","reason"}] when there are any (with hosts, in each host's object). \
            Exit status: 0 printed (with hosts: every host answered), 1 no engine (with hosts: some host was \
            unreachable), 2 invalid usage.
            """
    )

    /// How many hosts are asked at once: enough to overlap the waits on ssh, bounded so that a
    /// big inventory costs neither a thread nor a process per host.
    static let hostsAtOnce = 8
    /// How long a host may take, connecting included, before it counts as unreachable.
    static let hostDeadline: Duration = .seconds(60)

    @OptionGroup var socket: SocketOption

    @OptionGroup var hosts: HostsOptions

    @Flag(help: "Print one JSON document ({\"jobs\":[…]}; with hosts {\"hosts\":[…]}) instead of tables.")
    var json = false

    func run() throws {
        if hosts.isRemote {
            try hosts.checkNoSocket(socket)
            try runOnHosts(try hosts.sshCommands())
            return
        }
        let client = try socket.connect()
        let model: QueueModel
        do {
            model = try Self.snapshot(from: client)
        } catch {
            StandardOutput.stderr.line("installtop: \(error)")
            throw ExitCode(1)
        }
        // The commit-confirmed runs the engine will revert, with their deadlines.
        let armed = ArmedRunsInEngineHistory.windows(asking: client)
        client.close()
        if json {
            StandardOutput.stdout.line(StatusReport.json(model, armed: armed))
        } else {
            StandardOutput.stdout.write(StatusReport.text(model, sanitizer: TextEnvironment.sanitizer) + ArmedRunsInEngineHistory.text(armed))
        }
    }

    /// Asks every host at once (`hostsAtOnce` at a time) and prints what each said.
    private func runOnHosts(_ commands: [SSHCommand]) throws {
        let statuses = BoundedWorkers.map(commands, width: Self.hostsAtOnce) { command in Self.status(of: command) }
        if json {
            StandardOutput.stdout.line(HostsStatusReport.json(statuses))
        } else {
            StandardOutput.stdout.write(HostsStatusReport.text(statuses, sanitizer: TextEnvironment.sanitizer))
        }
        if !statuses.allSatisfy(\.isReachable) { throw ExitCode(1) }
    }

    /// One host's queue through `ssh HOST installtop bridge`, or why it could not be had.
    private static func status(of command: SSHCommand) -> HostStatus {
        let deadline = ContinuousClock.now + hostDeadline
        do {
            let client = try EngineClient(ssh: command)
            defer { client.close() }
            let model = try snapshot(from: client, deadline: deadline)
            return .reachable(host: command.host, model, armed: armedRuns(from: client))
        } catch {
            switch error {
            case .linkFailed(_, let reason):
                return .unreachable(host: command.host, reason: reason)
            case .noAnswer where ContinuousClock.now >= deadline:
                // The last wait was only what was left of the host's time: say the whole of it.
                return .unreachable(host: command.host, reason: "no snapshot within \(hostDeadline.components.seconds) s")
            default:
                return .unreachable(host: command.host, reason: error.description)
            }
        }
    }

    /// The commit-confirmed runs still open that the engine pushes right after its snapshot
    /// (`armed`, in the same write as `snapshot.end`); none when it sent none within
    /// `pushedWithin` (an engine without a history, or one older than the event).
    static func armedRuns(from client: EngineClient, pushedWithin: Duration = .milliseconds(300)) -> [ArmedRun] {
        let giveUp = ContinuousClock.now + pushedWithin
        while ContinuousClock.now < giveUp {
            guard let message = try? client.nextMessage(timeout: giveUp - ContinuousClock.now) else { return [] }
            if case .armed(let runs) = message { return runs.runs.filter(\.state.isOpen) }
        }
        return []
    }

    /// Subscribes and reads up to the end of the snapshot (giving up when the engine is silent
    /// for `DaemonRequest.replyTimeout`, or at `deadline`).
    static func snapshot(from client: EngineClient, deadline: ContinuousClock.Instant? = nil) throws(DaemonError) -> QueueModel {
        let requestID = try client.send(.subscribe)
        var model = QueueModel()
        while true {
            var timeout = DaemonRequest.replyTimeout
            if let deadline { timeout = min(timeout, max(.zero, deadline - ContinuousClock.now)) }
            guard let message = try client.nextMessage(timeout: timeout) else { break }
            switch message {
            case .event(let event): model.apply(event)
            case .snapshotEnd: return model
            case .reply(let reply) where reply.requestID == requestID || reply.requestID == nil:
                if let error = reply.error { throw .refused(error) }
            case .reply, .snapshotBegin, .pending, .armed, .unknown: break
            }
        }
        throw .connectionClosed(client.path)
    }
}
