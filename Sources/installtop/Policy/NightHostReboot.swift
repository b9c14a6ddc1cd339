#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineDaemon
import EngineWire
import Glibc
import InstallEngine
import PatchPolicy
import RestartScan
import TerminalUI
import TextBasics

/// A patch night's reboot of one host, between its armed run and its keeping
/// (Documentation/POLICY.md, "Reboots"): its engine's fresh pending snapshot says whether it
/// needs one (a newer kernel installed than the one running, or `/run/reboot-required`);
/// never this machine; one of the night's reboot places, taken only while the window is open;
/// the host's boot id read over ssh, `reboot.command` run there, then the host waited for
/// until its boot id changed and its engine answers again, within `reboot.timeout`. Blocks
/// its thread throughout: run it off the cooperative pool.
struct NightHostReboot {
    /// What became of the reboot.
    enum Ending {
        /// Nothing says the host needs one (or its engine could not say: `note` tells).
        case notNeeded(note: String?)
        /// It needs one that is left for the operator: reboots are off, it is this machine,
        /// the window closed, or its reboot command failed before anything went down.
        case left(note: String)
        /// It rebooted and its engine answers again over `client` (subscribed).
        case back(EngineClient, note: String)
        /// It was told to reboot and did not answer again with a new boot in time.
        case notBack(reason: String, note: String)

        /// What the night's stamp keeps of it.
        var note: String? {
            switch self {
            case .notNeeded(let note): note
            case .left(let note), .back(_, let note), .notBack(_, let note): note
            }
        }
    }

    let host: String
    /// How the host's engine is reached; its ssh options reach the host for the boot id and
    /// the reboot command too.
    let command: SSHCommand
    let settings: RebootSettings
    let places: RebootPlaces
    /// When the night's window closes (seconds since 1970, on `clock`'s time): no reboot starts after.
    let windowEnd: Int
    let clock: @Sendable () -> Int

    /// Where a host's boot id is read: a new one after each boot.
    static let bootIDPath = "/proc/sys/kernel/random/boot_id"
    /// How long the reboot command's ssh session may last: a host going down may leave it hanging.
    static let commandDeadline = Duration.seconds(60)
    /// Between two looks at a host coming back.
    static let pollInterval = Duration.seconds(2)

    /// Reboots the host if it needs it and may; `jobSucceeded` only changes what is said (a
    /// host whose job failed part-way with its run armed is rebooted too, its run then left to
    /// its deadline).
    func run(jobSucceeded: Bool) -> Ending {
        let reasons: [RebootReason]
        switch Self.rebootReasons(on: command) {
        case .failure(let why):
            StandardOutput.stdout.line("\(host): whether it needs a reboot is not known (its pending updates could not be read: \(why)); not rebooted")
            return .notNeeded(note: "whether it needs a reboot is not known: \(why)")
        case .success(let found):
            reasons = found
        }
        guard !reasons.isEmpty else { return .notNeeded(note: nil) }
        let need = "needs a reboot (\(Self.words(reasons)))" + (jobSucceeded ? "" : " after its job failed part-way")
        guard settings.enabled else { return left(need, because: "reboots are off in the policy") }
        let before: String
        switch readBootID() {
        case .success(let id): before = id
        case .failure(let why): return left(need, because: "its boot id could not be read (\(why))")
        }
        if let same = AdminMachine.sameness(host: host, hostBootID: before, ownBootID: AdminMachine.bootID()) {
            return left(need, because: "it is this machine, where the night runs (\(same)); never rebooted by it")
        }
        var taken = places.take(waitingAtMost: 0)
        if !taken {
            StandardOutput.stdout.line("\(host): \(need); waits for one of the night's \(settings.atOnce) reboot places")
            taken = places.take(waitingAtMost: windowEnd - clock())
        }
        guard taken else {
            return left(need, because: "the window closed before one of the night's \(settings.atOnce) reboot places was free")
        }
        var givenBack = false
        defer { if !givenBack { places.give() } }
        guard clock() < windowEnd else { return left(need, because: "the window closed before its reboot could start") }
        StandardOutput.stdout.line("\(host): \(need); rebooting")
        let started = ContinuousClock.now
        let outcome = SSHCommandRun(command: remote(settings.command), deadline: Self.commandDeadline).run(input: nil) { _ in }
        // 255: ssh lost the host as it went down; no status: the session hung past its deadline.
        if let status = outcome.status, status != 0, status != 255 {
            return left(need, because: "its reboot command exited \(status)"
                + (outcome.lastWords.isEmpty ? "" : " (\(TextEnvironment.sanitizer.sanitize(outcome.lastWords)))"))
        }
        let timeout = Duration.seconds(settings.timeout)
        let giveUp = started + timeout
        while ContinuousClock.now < giveUp {
            if case .success(let now) = readBootID(), now != before, let client = answeringEngine() {
                let took = (ContinuousClock.now - started).components.seconds
                places.give()
                givenBack = true
                StandardOutput.stdout.line("\(host): back after \(took) s")
                return .back(client, note: "rebooted (\(Self.words(reasons))), back after \(took) s")
            }
            let pause = min(Self.pollInterval, giveUp - ContinuousClock.now)
            if pause > .zero { usleep(UInt32(pause.components.seconds * 1_000_000 + pause.components.attoseconds / 1_000_000_000_000)) }
        }
        return .notBack(reason: "did not come back within \(timeout.shortText) of its reboot (its engine does not answer with a new boot); "
                            + "its armed run is undone by its engine at the deadline if it comes back",
                        note: "rebooted (\(Self.words(reasons))), not back within \(timeout.shortText)")
    }

    /// Says the reboot is left for the operator, and why.
    private func left(_ need: String, because why: String) -> Ending {
        StandardOutput.stdout.line("\(host): \(need); not rebooted: \(why); left for you (installtop restarts --host \(host))")
        return .left(note: "\(need), left for the operator: \(why)")
    }

    /// The host reached for `remoteCommand` over a connection of its own: never one an ssh
    /// master shared before the reboot, which would answer for a host that is gone.
    private func remote(_ remoteCommand: String) -> SSHCommand {
        SSHCommand(host: command.host, options: ["-o", "ControlMaster=no", "-o", "ControlPath=none", "-o", "ConnectTimeout=10"] + command.options,
                   remoteCommand: remoteCommand, program: command.program)
    }

    /// The host's boot id now, or why it could not be read.
    private func readBootID() -> Result<String, BootIDUnread> {
        var lines: [String] = []
        let deadline = Duration.seconds(20)
        let outcome = SSHCommandRun(command: remote("cat \(Self.bootIDPath)"), deadline: deadline).run(input: nil) { lines.append($0) }
        let id = lines.first?.trimmingWhitespace ?? ""
        guard outcome.status == 0, !id.isEmpty else { return .failure(BootIDUnread(description: SSHCommandRun.silence(outcome, deadline: deadline))) }
        return .success(id)
    }

    /// A new link to the host's engine once it answers (a pending snapshot computed anew),
    /// subscribed for the armed run's window; `nil` while it does not.
    private func answeringEngine() -> EngineClient? {
        guard case .success = Self.rebootReasons(on: command) else { return nil }
        do throws(DaemonError) {
            let client = try EngineClient(ssh: command)
            do throws(DaemonError) {
                _ = try client.send(.subscribe)
                return client
            } catch {
                client.close()
                return nil
            }
        } catch {
            return nil
        }
    }

    /// Why `command`'s host needs a reboot, from a pending snapshot its engine computes now.
    static func rebootReasons(on command: SSHCommand) -> Result<[RebootReason], DaemonError> {
        HostPendingSnapshot.computed(on: command).map { $0.restarts?.rebootReasons ?? [] }
    }

    /// `new kernel 6.1.0-28-amd64, /run/reboot-required: libc6`.
    static func words(_ reasons: [RebootReason]) -> String {
        reasons.map { reason in
            switch reason {
            case .newerKernel(_, let installed): "new kernel \(TextEnvironment.sanitizer.sanitize(installed))"
            case .rebootRequiredFile(let packages) where packages.isEmpty: "/run/reboot-required"
            case .rebootRequiredFile(let packages):
                "/run/reboot-required: " + packages.map { TextEnvironment.sanitizer.sanitize($0) }.joined(separator: ", ")
            }
        }.joined(separator: ", ")
    }

    private struct BootIDUnread: Error, CustomStringConvertible {
        let description: String
    }
}
