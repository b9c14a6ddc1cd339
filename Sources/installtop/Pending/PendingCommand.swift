import ArgumentParser
import EngineDaemon
import EngineWire
import InstallDrivers
import InstallEngine
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `installtop pending`: what an upgrade of this machine, or of each host, would change
/// (Documentation/MANY-HOSTS.md "Fleet patching").
struct PendingCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pending",
        abstract: "Print what an upgrade would change: pending and held-back packages, security updates, the age of apt's lists, a kernel waiting for a reboot.",
        discussion: """
            Read without dpkg's lock, as `apt-get -s upgrade` reads it: nothing is changed, and \
            another apt may run meanwhile. The first line sums it up (`12 pending · 3 security · \
            2 held back · lists 6 days old · reboot: 6.1.0-28-amd64`, or `up to date · lists 2 hours \
            old`); then a line per package the upgrade would install or upgrade (name, installed → \
            new version, origin as apt names it, and `security` when the origin's suite or label \
            says -security), then each package a newer version of which is known but that the \
            upgrade holds back, with why: held (apt-mark hold), pinned (a preferences file keeps an \
            older candidate), phased (Phased-Update-Percentage), would remove (dist-upgrade takes it, \
            removing the packages named), needs new packages, or kept back by apt. The restart \
            advice is that of `installtop restarts` for the root. \
            Without --host or --hosts it asks this machine's engine (`installtop serve`), which \
            keeps the snapshot of its root, computed as it starts, after every job and on request: \
            this question asks for a new one and waits for it, unless a package job of the engine \
            runs, when the latest is printed with a line saying a newer one is being computed; \
            with no engine answering (and no --socket given) it reads this system's root itself. \
            --apt-config or --chroot read that root directly. --refresh has the engine run `apt-get \
            update` first, as a job of its queue (shown, recorded in the history, abortable), and \
            prints the snapshot computed after it. \
            With --host or --hosts each host's engine is asked over ssh (at most \(hostsAtOnce) at a \
            time, each given \(hostDeadline.components.seconds) s, a refresh without limit as long \
            as the engine answers); the text is a section per host (== NAME ==), or \
            `unreachable:` and ssh's own words. \
            --json prints one object with the members computedAt, problem, pending, security, \
            packages (each with name, oldVersion, newVersion, origin, architecture, security), \
            heldBack (each with name, installedVersion, availableVersion, reason, packages, \
            phasedPercentage), notFullyInstalled (what dpkg left half-way: `name: state at version \
            (status)`), finishCommand (what finishes all of them: dpkg --configure -a, installtop apt \
            repair RUN, or apt-get install --reinstall P where a package is half-installed; null when \
            none), listsUpdatedAt, waitingKernel and restarts: reason is held, \
            pinned, phased, would-remove, needs-new-packages or kept-back, packages what \
            dist-upgrade would remove or newly install for it; times are RFC 3339; \
            listsUpdatedAt is null when apt's lists were never fetched; problem is null unless \
            nothing could be read (restarts is then null too); restarts is the advice as \
            `installtop restarts --json` prints it. With hosts it prints {"hosts": [...]}, each \
            with host, reachable, and computing and snapshot, or error. \
            Exit status: 0 printed, 1 the snapshot could not be computed (its problem is printed) \
            or no engine could run the refresh (with hosts: some host was unreachable or could not \
            compute), 2 invalid usage.
            """
    )

    /// How many hosts are asked at once, as `status` does.
    static let hostsAtOnce = StatusCommand.hostsAtOnce
    /// How long a host may take to answer when no refresh was asked for.
    static let hostDeadline = StatusCommand.hostDeadline

    @Flag(help: "Print one JSON object (with hosts {\"hosts\":[…]}) instead of text.")
    var json = false

    @Flag(help: "Have the engine refresh apt's lists first (apt-get update, a job of its queue), then print the snapshot computed after it.")
    var refresh = false

    @Option(help: ArgumentHelp("Read the root apt's configuration file names (as APT_CONFIG) directly, without asking an engine.", valueName: "file"))
    var aptConfig: String?

    @Option(help: ArgumentHelp("Read the root inside this folder through chroot (an image or a container's root) directly, without asking an engine.", valueName: "dir"))
    var chroot: String?

    @OptionGroup var socket: SocketOption

    @OptionGroup var hosts: HostsOptions

    func validate() throws {
        let direct = [aptConfig == nil ? nil : "--apt-config", chroot == nil ? nil : "--chroot"].compactMap { $0 }
        if let first = direct.first, hosts.isRemote {
            throw ValidationError("\(first) reads a root of this machine; each host's engine reads its own")
        }
        if let first = direct.first, refresh {
            throw ValidationError("--refresh is a job of an engine, which reads its own root: leave out \(first)")
        }
        if let first = direct.first, socket.socket != nil {
            throw ValidationError("\(first) reads the root directly: leave out --socket")
        }
    }

    func run() throws {
        if hosts.isRemote {
            try hosts.checkNoSocket(socket)
            try runOnHosts(try hosts.sshCommands())
            return
        }
        let answer: (snapshot: PendingSnapshot, computing: Bool)
        if aptConfig != nil || chroot != nil {
            answer = (PendingSnapshotReader.read(aptConfig: aptConfig, chroot: chroot), false)
        } else {
            answer = try askLocalEngine()
        }
        if json {
            StandardOutput.stdout.line(PendingSnapshotCoding.encode(answer.snapshot))
        } else {
            StandardOutput.stdout.write(PendingReport.text(answer.snapshot, computing: answer.computing, now: Date(),
                                                           sanitizer: TextEnvironment.sanitizer, width: OutputWidth.forCutting()))
        }
        if answer.snapshot.problem != nil { throw ExitCode(ExitStatus.failed.rawValue) }
    }

    /// This machine's engine's snapshot; this system's root read here when no engine answers
    /// and none was named (`--socket`), unless a refresh was asked for, which needs one.
    private func askLocalEngine() throws -> (snapshot: PendingSnapshot, computing: Bool) {
        let client: EngineClient
        do {
            client = try socket.connect { path throws(DaemonError) in try EngineClient(path: path) }
        } catch {
            guard socket.socket == nil, !refresh else {
                StandardOutput.stderr.line("installtop: \(error)" + (refresh ? " (--refresh is a job of an engine: start `installtop serve`)" : ""))
                throw ExitCode(ExitStatus.failed.rawValue)
            }
            return (PendingSnapshotReader.read(aptConfig: ProcessInfo.processInfo.environment["APT_CONFIG"]), false)
        }
        defer { client.close() }
        do {
            return try PendingQuestion.ask(client, refresh: refresh)
        } catch {
            StandardOutput.stderr.line("installtop: \(error)")
            throw ExitCode(ExitStatus.failed.rawValue)
        }
    }

    /// Asks every host (`hostsAtOnce` at a time) and prints what each said.
    private func runOnHosts(_ commands: [SSHCommand]) throws {
        let refresh = self.refresh
        let answers = BoundedWorkers.map(commands, width: Self.hostsAtOnce) { command in Self.pending(of: command, refresh: refresh) }
        if json {
            StandardOutput.stdout.line(PendingReport.json(answers))
        } else {
            StandardOutput.stdout.write(PendingReport.text(answers, now: Date(), sanitizer: TextEnvironment.sanitizer, width: OutputWidth.forCutting()))
        }
        if !answers.allSatisfy(\.isComplete) { throw ExitCode(ExitStatus.failed.rawValue) }
    }

    /// One host's snapshot through `ssh HOST installtop bridge`, or why it could not be had. A
    /// host that is not done in `hostDeadline` (unless refreshing) is unreachable.
    private static func pending(of command: SSHCommand, refresh: Bool) -> HostPending {
        let client: EngineClient
        do {
            client = try EngineClient(ssh: command)
        } catch {
            return unreachable(command, error)
        }
        defer { client.close() }
        // Without a refresh, the link is closed at the deadline, which ends a wait on it. The
        // close waits for ssh to end (up to its grace): on a thread of its own, never on the
        // reactor's thread, where the timer fires and every child and timer would wait too;
        // not on the blocking pool either, whose threads may all be waiting in `ask` for closes.
        let deadline = ContinuousClock.now + hostDeadline
        let timer = refresh ? nil : EngineTimers.shared.schedule(after: hostDeadline) {
            EngineThread.detach(named: "installtop-close") { client.close() }
        }
        defer { timer.map(EngineTimers.shared.cancel) }
        do {
            let (snapshot, computing) = try PendingQuestion.ask(client, refresh: refresh)
            return .reachable(host: command.host, snapshot: snapshot, computing: computing)
        } catch {
            if !refresh, ContinuousClock.now >= deadline {
                return .unreachable(host: command.host, reason: "no snapshot within \(hostDeadline.components.seconds) s")
            }
            return unreachable(command, error)
        }
    }

    private static func unreachable(_ command: SSHCommand, _ error: DaemonError) -> HostPending {
        if case .linkFailed(_, let reason) = error { return .unreachable(host: command.host, reason: reason) }
        return .unreachable(host: command.host, reason: error.description)
    }
}
