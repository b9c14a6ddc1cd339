import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import EngineDaemon
import EngineWire
import Glibc
import InstallEngine
import Monitor
import Synchronization
import TerminalUI

/// `installtop apt upgrade --host … / --hosts INV`: a rollout from the command line, as the
/// board's `U` does it. Every host's engine is sent an `apt upgrade` without a yes (at most
/// `StatusCommand.hostsAtOnce` at a time), plans it and holds it; each host's plan is printed
/// (`web1: 3 to upgrade · 1.2 MB to download`, then its packages, removals first). With
/// `--yes` (or a `y` at a terminal) the held jobs are confirmed `parallel` hosts at a time in
/// the hosts' order, each followed to its end over its link, by the board's own rollout
/// (`Rollout`); after a host's job fails no new host starts (the running ones end), the hosts
/// not started are declined and named, exit 1.
/// Without a yes every held job is declined and nothing runs (exit 1, as apt's "Abort.").
///
/// With `--confirm` each host's job is armed (Documentation/COMMIT-CONFIRMED.md): its engine
/// takes the host's health before and after it and undoes the run unless it is kept in time. A
/// host counts as upgraded once its run is armed and, with `--confirm-by-login`, kept after a
/// fresh ssh login to it worked and none of its checks regressed; a host not kept that way
/// counts as failed (it reverts by itself at its deadline), and no new host starts.
struct APTHostsUpgrade {
    let commands: [SSHCommand]
    let parallel: Int
    let yes: Bool
    /// `apt full-upgrade` (new and removed packages too) rather than `apt upgrade`.
    var full = false
    /// Arms each host's job; `nil` leaves the runs as they end.
    var confirm: ConfirmRequest?
    /// Keeps each armed run once a fresh ssh login to its host works and nothing regressed.
    var confirmByLogin = false

    /// What became of one host's started job.
    enum Outcome: Sendable {
        case succeeded
        case failed(String)
    }

    /// A host whose engine holds its planned job, and the connection that follows it.
    private struct HeldHost: Sendable {
        let command: SSHCommand
        let client: EngineClient
        let job: Int
        /// The job's name as its engine planned it, which its run is recorded under.
        let name: String
        var host: String { command.host }
    }

    func run() -> ExitStatus {
        let submission = RolloutJob.submission(full: full, confirm: confirm)
        let plans = BoundedWorkers.map(commands, width: StatusCommand.hostsAtOnce) { command in HostUpgradeStep.plan(submission, on: command) }
        var planningFailed = false
        for (command, plan) in zip(commands, plans) {
            switch plan {
            case .held(_, _, let descriptor): printPlan(descriptor, host: command.host)
            case .upToDate: StandardOutput.stdout.line("\(command.host): up to date, nothing to upgrade")
            case .failed(let reason):
                planningFailed = true
                StandardOutput.stderr.line("installtop: \(command.host): nothing queued: \(reason)")
            }
        }
        let held = zip(commands, plans).compactMap { command, plan -> HeldHost? in
            guard case .held(let client, let job, let descriptor) = plan else { return nil }
            // An empty plan runs nothing: declined rather than started.
            guard !descriptor.updates.isEmpty else {
                HostUpgradeStep.decline(client: client, job: job)
                client.close()
                return nil
            }
            return HeldHost(command: command, client: client, job: job, name: descriptor.name)
        }
        guard !held.isEmpty else { return planningFailed ? .failed : .succeeded }
        guard yes || askYes(hosts: held.count) else {
            _ = BoundedWorkers.map(held.map { HeldJob(client: $0.client, job: $0.job) }, width: StatusCommand.hostsAtOnce) { held in
                HostUpgradeStep.decline(client: held.client, job: held.job)
                held.client.close()
            }
            StandardOutput.stdout.line("Abort.")
            return .failed
        }
        return roll(held) && !planningFailed ? .succeeded : .failed
    }

    /// At a terminal, one question for every plan; off a terminal without `--yes` the answer is no.
    private func askYes(hosts: Int) -> Bool {
        guard isatty(STDIN_FILENO) == 1 else {
            StandardOutput.stderr.line("installtop: nothing upgraded: off a terminal, --yes confirms the plans")
            return false
        }
        StandardOutput.stdout.write("Upgrade \(hosts == 1 ? "this host" : "these \(hosts) hosts"), \(parallel) at a time; "
            + "after a failure no new host starts? [y/N] ")
        guard let answer = readLine() else { return false }
        return ["y", "yes"].contains(answer.lowercased())
    }

    /// Starts the hosts as the board does, the same value machine (`Rollout`): in order,
    /// `parallel` at once; after a failure no new host starts, and since nobody at a command
    /// line says to continue, the hosts not started are declined. True when every host started
    /// and succeeded.
    private func roll(_ held: [HeldHost]) -> Bool {
        // The rollout's job numbers are positions + 1: each host's engine numbers its own jobs.
        var rollout = Rollout(hosts: held.map(\.host), parallel: parallel, full: full)
        for (index, host) in held.enumerated() { _ = rollout.planHeld(host: host.host, job: index + 1) }
        rollout.answer(yes: true)
        var sights: [Int: RolloutJobSight] = [:]
        let ended = Mutex<[(Int, Outcome)]>([])
        let signal = DispatchSemaphore(value: 0)
        var running = 0
        var failures: [String] = []
        var declined: [Int] = []
        while true {
            var steps = rollout.advance(seeing: { sights[$0] ?? .queued }, reachable: { _ in true })
            while !steps.isEmpty {
                switch steps.removeFirst() {
                case .confirm(let job):
                    let host = held[job - 1]
                    sights[job] = .running
                    running += 1
                    StandardOutput.stdout.line("\(host.host): starting")
                    EngineThread.detach(named: "installtop-roll") { [confirm, confirmByLogin] in
                        var (outcome, endedAt) = HostUpgradeStep.follow(client: host.client, job: host.job, host: host.host)
                        // An armed job that ran to its end: its host's window decides.
                        if confirm != nil, let endedAt {
                            outcome = ArmedHostFollower(command: host.command, client: host.client, jobName: host.name, endedAt: endedAt,
                                                        confirmByLogin: confirmByLogin).follow(after: outcome)
                        }
                        ended.withLock { $0.append((job, outcome)) }
                        signal.signal()
                    }
                case .decline(let job):
                    declined.append(job)
                case .paused:
                    steps += rollout.stop()
                }
            }
            guard running > 0 else { break }
            signal.wait()
            for (job, outcome) in ended.withLock({ list in defer { list = [] }; return list }) {
                running -= 1
                let host = held[job - 1].host
                held[job - 1].client.close()
                switch outcome {
                case .succeeded:
                    sights[job] = .completed(failed: false)
                    StandardOutput.stdout.line("\(host): upgraded")
                case .failed(let reason):
                    sights[job] = .completed(failed: true)
                    failures.append(host)
                    StandardOutput.stdout.line("\(host): failed: \(reason)")
                }
            }
        }
        let notStarted = declined.map { held[$0 - 1] }
        _ = BoundedWorkers.map(notStarted.map { HeldJob(client: $0.client, job: $0.job) }, width: StatusCommand.hostsAtOnce) { held in
            HostUpgradeStep.decline(client: held.client, job: held.job)
            held.client.close()
        }
        if !failures.isEmpty {
            let left = notStarted.map(\.host)
            StandardOutput.stderr.line("installtop: \(failures.joined(separator: ", ")) failed"
                + (left.isEmpty ? "" : "; not started (their plans declined): \(left.joined(separator: ", "))"))
        }
        return failures.isEmpty
    }

    /// `web1: 3 to upgrade · 1.2 MB to download`, then a line per package, removals first,
    /// Essential ones marked.
    private func printPlan(_ descriptor: JobDescriptor, host: String) {
        let sanitizer = TextEnvironment.sanitizer
        let prefix = Rollout.jobName(full: full) + " · "
        let summary = descriptor.name.hasPrefix(prefix) ? String(descriptor.name.dropFirst(prefix.count)) : descriptor.name
        StandardOutput.stdout.line("\(host): " + sanitizer.sanitize(summary))
        let changes = descriptor.updates.compactMap(\.package)
        let order: [PackageChange.Action] = [.remove, .purge, .upgrade, .reinstall, .install]
        for change in changes.enumerated().sorted(by: { left, right in
            let (l, r) = (order.firstIndex(of: left.element.action) ?? 0, order.firstIndex(of: right.element.action) ?? 0)
            return l != r ? l < r : left.offset < right.offset
        }).map(\.element) {
            StandardOutput.stdout.line("  \(change.action.rawValue) " + sanitizer.sanitize(change.title) + (change.essential ? " [essential]" : ""))
        }
        if let warning = PackageChange.essentialWarning(changes) { StandardOutput.stdout.line("  WARNING: this \(warning).") }
        if confirm != nil {
            for change in changes where change.takesEffectOnlyAfterReboot {
                StandardOutput.stdout.line("  note: " + sanitizer.sanitize(PackageChange.rebootOnlyNote(change.package)))
            }
        }
    }

    /// A held job and its connection, handed to the threads that decline it.
    private struct HeldJob: Sendable {
        let client: EngineClient
        let job: Int
    }
}
