#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineDaemon
import EngineWire
import InstallDrivers
import InstallEngine
import PatchPolicy
import TerminalUI

/// A patch night's hosts patched with apt, reached over ssh (`NightHostRunner`, made by
/// `APTKindRegistration.nightHostRunner`), each step on a thread of its own
/// since engine links block: a host's step is the policy's `before` command on this machine,
/// its engine's armed package job (the gate's `confirm`, its own checks, a regressed check
/// reverting at once), once the run is armed a reboot when the host needs one
/// (`NightHostReboot`, one of the night's places), kept only once no check regressed and a
/// fresh ssh login works, then the `after` command; the gate runs the gate's command.
struct APTNightHostRunner: NightHostRunner {
    /// The night: its policy, hosts, window, clock and reboot places.
    let night: NightHosts

    init(_ night: NightHosts) {
        self.night = night
    }

    private var policy: PatchPolicy { night.policy }
    private var policyPath: String { night.policyPath }
    private var commands: [String: SSHCommand] { night.commands }

    /// The name each night job is submitted under; its engine adds the plan's summary.
    static let jobName = "patch night"

    /// Where the policy's commands run.
    private var folder: String { PatchNotifier.folder(of: policyPath) }

    func patch(host: String, wave: Int) async -> HostOutcome {
        await patchReporting(host: host, wave: wave).outcome
    }

    func patchReporting(host: String, wave: Int) async -> HostReport {
        await Self.offThread { patchNow(host: host, wave: wave) }
    }

    func recover(host: String, wave: Int) async -> HostOutcome {
        await Self.offThread { afterCommand(host: host, wave: wave, outcome: recoverNow(host: host)) }
    }

    func evaluateGate(wave: Int, confirmed: [String]) async -> (passed: Bool, reason: String) {
        guard let command = policy.gate.command else { return (true, "") }
        let environment = ["INSTALLTOP_POLICY": policyPath, "INSTALLTOP_WAVE": String(wave + 1),
                           "INSTALLTOP_CONFIRMED_HOSTS": confirmed.joined(separator: " ")]
        let result = await Self.offThread { AdminCommand(command: command, folder: folder).run(environment: environment) }
        return (result.status == 0, "its command " + result.failure)
    }

    // MARK: - One host

    private func patchNow(host: String, wave: Int) -> HostReport {
        if let before = policy.hostCommands.before {
            let result = AdminCommand(command: before, folder: folder).run(environment: commandEnvironment(host: host, wave: wave))
            guard result.status == 0 else { return HostReport(outcome: .failed(reason: "its before command " + result.failure + "; not patched")) }
        }
        var rebootNote: String?
        let outcome = upgrade(host, rebootNote: &rebootNote)
        return HostReport(outcome: afterCommand(host: host, wave: wave, outcome: outcome), reboot: rebootNote)
    }

    /// What `before` and `after` find in their environment.
    private func commandEnvironment(host: String, wave: Int) -> [String: String] {
        ["INSTALLTOP_POLICY": policyPath, "INSTALLTOP_HOST": host, "INSTALLTOP_WAVE": String(wave + 1)]
    }

    /// Runs the policy's `after` command for `host` once its step ended with `outcome`
    /// (patched now, or recovered after a restart): a failure turns a confirmed host into a
    /// failed one.
    private func afterCommand(host: String, wave: Int, outcome: HostOutcome) -> HostOutcome {
        guard let after = policy.hostCommands.after else { return outcome }
        let result = AdminCommand(command: after, folder: folder).run(environment: commandEnvironment(host: host, wave: wave))
        guard result.status != 0, outcome == .confirmed else { return outcome }
        return .failed(reason: "patched and confirmed, but its after command " + result.failure)
    }

    /// The host's armed job from plan to confirmation, with its reboot in between when it
    /// needs one (`rebootNote` says what became of it).
    private func upgrade(_ host: String, rebootNote: inout String?) -> HostOutcome {
        guard let command = commands[host] else { return .unreachable(reason: "no way to reach it") }
        var selection = policy.packages
        if selection != .all || policy.age.isActive {
            // Security updates, the list's packages that have one, or those old enough: what
            // the host has pending, dated by its engine.
            let choice: NightPackageChoice
            switch Self.pendingUpgrades(on: command) {
            case .failure(let why):
                return .failed(reason: "its pending updates could not be read, so which of them the policy takes is not known: \(why)")
            case .success(let packages):
                choice = NightPackageChoice(packages, selection: selection, age: policy.age, now: night.clock())
            }
            for waiting in choice.waiting {
                if case .wait(let package, let until) = waiting {
                    StandardOutput.stdout.line("\(host): \(package) waits for the age gate until \(NightSummary.text(until))")
                }
            }
            guard choice.undated.isEmpty else {
                return .failed(reason: "its engine does not say how long \(choice.undated.joined(separator: ", ")) "
                    + "\(choice.undated.count == 1 ? "has" : "have") been known (it keeps no history), so the age gate cannot be honoured; not patched")
            }
            guard !choice.taken.isEmpty else {
                StandardOutput.stdout.line("\(host): none of the policy's packages (\(selection.description)) has an upgrade pending"
                    + (choice.waiting.isEmpty ? "" : " that is old enough"))
                return .confirmed
            }
            selection = .list(choice.taken)
        }
        let confirm = ConfirmRequest(seconds: Double(policy.gate.confirm), checksDirectory: night.checksDirectory, revertOnRegression: true)
        let plan = HostUpgradeStep.plan(Self.submission(selection, confirm: confirm), on: command)
        switch plan {
        case .failed(let reason):
            // The reason says whether ssh failed or the engine refused; both leave the host as it was.
            return .failed(reason: "nothing queued: \(reason)")
        case .upToDate:
            StandardOutput.stdout.line("\(host): up to date, nothing to upgrade")
            return .confirmed
        case .held(let client, let job, let descriptor):
            defer { client.close() }
            guard !descriptor.updates.isEmpty else {
                HostUpgradeStep.decline(client: client, job: job)
                StandardOutput.stdout.line("\(host): up to date, nothing to upgrade")
                return .confirmed
            }
            let changes = descriptor.updates.compactMap(\.package)
            if let beyond = Self.beyond(selection, changes) {
                HostUpgradeStep.decline(client: client, job: job)
                return .failed(reason: "its plan would \(beyond), which the policy's packages do not allow; declined, nothing ran")
            }
            StandardOutput.stdout.line("\(host): " + TextEnvironment.sanitizer.sanitize(descriptor.name))
            let (jobOutcome, endedAt) = HostUpgradeStep.follow(client: client, job: job, host: host)
            guard let endedAt else {
                if case .failed(let reason) = jobOutcome { return .failed(reason: reason) }
                return .failed(reason: "its job never ended")
            }
            var follower = ArmedHostFollower(command: command, client: client, jobName: descriptor.name, endedAt: endedAt, confirmByLogin: true)
            follower.revertsOnRegression = true
            // Only an armed run's host is rebooted, also when its job failed part-way: whatever
            // the boot brings, its engine still undoes the run at the deadline unless it is kept.
            let reboot = NightHostReboot(host: host, command: command, settings: policy.reboot, places: night.rebootPlaces,
                                         windowEnd: night.windowEnd, clock: night.clock)
            var note: String?
            follower.beforeKeeping = { _, succeeded in
                let ending = reboot.run(jobSucceeded: succeeded)
                note = ending.note
                switch ending {
                case .notNeeded, .left: return .goOn
                case .back(let fresh, _): return .reconnected(fresh)
                case .notBack(let reason, _): return .stop(.notBack(reason))
                }
            }
            let verdict = follower.verdict(after: jobOutcome)
            rebootNote = note
            return Self.outcome(verdict)
        }
    }

    /// How the step a stamp says was running ended, from the host's engine: a job of this night
    /// still running is followed to its end and its window kept as usual; a plan still held
    /// (the admin process stopped before confirming it) is declined; otherwise the run armed
    /// since the window opened decides. Nothing is submitted.
    private func recoverNow(host: String) -> HostOutcome {
        guard let command = commands[host] else { return .unreachable(reason: "no way to reach it") }
        let client: EngineClient
        do throws(DaemonError) {
            client = try EngineClient(ssh: command)
        } catch {
            return .unreachable(reason: EngineTarget.host(command).describe(error))
        }
        defer { client.close() }
        var names: [Int: String] = [:]
        var confirmed = Set<Int>()
        var completed: [Int: Bool] = [:]
        do throws(DaemonError) {
            try client.send(.subscribe)
            while let message = try client.nextMessage(timeout: DaemonRequest.replyTimeout) {
                if case .snapshotEnd = message { break }
                guard case .event(let event) = message else { continue }
                switch event.kind {
                case .jobQueued(let descriptor) where descriptor.name.hasPrefix(Self.jobName): names[descriptor.id] = descriptor.name
                case .jobConfirmed(let confirmation): confirmed.insert(confirmation.job)
                case .jobStarted(let start): confirmed.insert(start.job)
                case .jobCompleted(let completion): completed[completion.job] = completion.result.shownResultCode == .succeeded
                default: break
                }
            }
        } catch {
            return .unreachable(reason: error.description)
        }
        if let job = names.keys.filter({ completed[$0] == nil }).max(), let name = names[job] {
            guard confirmed.contains(job) else {
                HostUpgradeStep.decline(client: client, job: job)
                return .failed(reason: "its plan was still held when the night was interrupted; declined, nothing ran")
            }
            let (jobOutcome, endedAt) = HostUpgradeStep.follow(client: client, job: job, host: host, confirming: false)
            guard let endedAt else {
                if case .failed(let reason) = jobOutcome { return .failed(reason: reason) }
                return .failed(reason: "its job never ended")
            }
            var follower = ArmedHostFollower(command: command, client: client, jobName: name, endedAt: endedAt, confirmByLogin: true)
            follower.revertsOnRegression = true
            return Self.outcome(follower.verdict(after: jobOutcome))
        }
        // The newest finished job of this night in the queue says whether it succeeded; one
        // cleaned up since is taken as succeeded, and its window decides.
        let newest = names.keys.max()
        let jobOutcome: APTHostsUpgrade.Outcome = newest.flatMap { completed[$0] } == false ? .failed("its job failed") : .succeeded
        var follower = ArmedHostFollower(command: command, client: client, jobName: Self.jobName,
                                         endedAt: Date(timeIntervalSince1970: TimeInterval(night.windowStart)), confirmByLogin: true)
        follower.matchingPrefix = true
        follower.revertsOnRegression = true
        // The engine says its windows right after the snapshot.
        follower.armingTimeout = DaemonRequest.replyTimeout
        let verdict = follower.verdict(after: jobOutcome)
        if case .notArmed = verdict, newest == nil {
            return .failed(reason: "its engine shows no job of this night: it was interrupted before the host's job was submitted, or the job left no armed run; not patched again")
        }
        return Self.outcome(verdict)
    }

    // MARK: - Rules

    /// A host's outcome for the night from its armed run's.
    static func outcome(_ verdict: ArmedHostVerdict) -> HostOutcome {
        switch verdict {
        case .kept, .confirmedAlready: .confirmed
        case .leftArmed: .reverted(reason: "its run was not kept; its host undoes it at the deadline")
        case .jobFailed(let outcome):
            if case .failed(let reason) = outcome { .failed(reason: reason + "; its armed run is undone at its deadline") } else { .failed(reason: "its job failed") }
        case .notArmed(let reason): .failed(reason: reason)
        case .reverts(let reason): .reverted(reason: reason)
        case .notBack(let reason): .notBack(reason: reason)
        }
    }

    /// The pending upgrades of a snapshot `command`'s engine computes now, each dated by when
    /// that engine first listed it; or why it could not say.
    static func pendingUpgrades(on command: SSHCommand) -> Result<[PendingPackage], DaemonError> {
        HostPendingSnapshot.computed(on: command).map(\.packages)
    }

    /// The job for `selection`, armed with `confirm`: `apt upgrade` for every update, `apt
    /// install NAMES` for a list (its plan is checked to upgrade only those before it runs).
    /// - Precondition: not `.security`, which the host's step turns into the list of its
    ///   pending security upgrades first, as it narrows a list to the names with an upgrade.
    static func submission(_ selection: PackageSelection, confirm: ConfirmRequest) -> JobSubmission {
        let request: PackageRequest
        switch selection {
        case .list(let names): request = .install(names)
        case .all, .security: request = .upgrade
        }
        return JobSubmission(name: jobName, operation: .install, updates: [], stopOnFailure: false,
                             kind: JobKindSpec(kind: APTJobKind(keepers: nil), spec: PackageJob(request: request, confirm: confirm)))
    }

    /// What a plan does beyond `selection` (`install lab-c`, `remove lab-d`), or `nil` when it
    /// only upgrades what the selection allows: a list allows upgrades of its packages only,
    /// never a package installed or removed along with them.
    static func beyond(_ selection: PackageSelection, _ changes: [PackageChange]) -> String? {
        guard case .list(let names) = selection else { return nil }
        let outside = changes.filter { $0.action != .upgrade || !names.contains($0.package) }
        guard !outside.isEmpty else { return nil }
        return outside.map { "\($0.action.rawValue) \($0.package)" }.joined(separator: ", ")
    }

    /// Runs `body` on a thread of its own: engine links and commands block, and the
    /// cooperative pool has a thread per core.
    private static func offThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            EngineThread.detach(named: "installtop-night") { continuation.resume(returning: body()) }
        }
    }
}
