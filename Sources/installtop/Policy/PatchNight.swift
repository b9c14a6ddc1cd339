import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineDaemon
import Glibc
import HostInventory
import InstallEngine
import PatchPolicy
import Synchronization
import TextBasics

/// `installtop patch --policy FILE`: the night itself (Documentation/POLICY.md). Inside a
/// window only; with the policy's stamp locked, so that a second process for the same policy
/// refuses; fresh, resumed from the stamp (the hosts that were running asked how they ended,
/// none started twice) or over already; then `NightLoop` over the package kind's runner (apt's `APTNightHostRunner`) until the
/// night is over, the window's end closing it. Returns the command's exit status
/// (`PatchCommand.exitStatuses`).
struct PatchNight {
    let policy: PatchPolicy
    /// The policy's absolute path, as the stamp records it.
    let policyPath: String
    let stateFolder: String
    let ssh: PatchSSHSettings
    let checksDirectory: String?
    /// `--again`: a night over for this window (stopped or finished) gives way to a new one.
    /// A night that can be resumed is resumed all the same: its running hosts are never
    /// started twice.
    let again: Bool
    /// The instant the night starts at (seconds since 1970).
    let now: Int

    /// The night finished: every wave passed its gate.
    static let finished: Int32 = 0
    /// The night stopped: a gate failed, the failure budget was spent, the window closed with
    /// hosts left, or a rebooted host did not come back.
    static let stopped: Int32 = 1
    /// Invalid usage, or an invalid policy.
    static let refused: Int32 = 2
    /// Nothing was done: no window is open, or this window's night is over already.
    static let nothingToDo: Int32 = 8
    /// The stamp could not be read, written or locked, or belongs to another policy.
    static let stampProblem: Int32 = 9

    func run() -> Int32 {
        let schedule = policy.schedule
        let occurrence = schedule.occurrence(at: now)
        let stampFile = StampFile(path: NightStampLocation.stamp(policy: policyPath, folder: stateFolder))
        do {
            try FileManager.default.createDirectory(atPath: stateFolder, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            StandardOutput.stderr.line("installtop: cannot create the state folder \(stateFolder): \(ErrorText.reason(error))")
            return Self.stampProblem
        }
        // Held until the process ends: the kernel lets go of it even after a SIGKILL.
        let lock = open(stampFile.path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            if lock >= 0 { close(lock) }
            StandardOutput.stderr.line("installtop: " + (reason == EWOULDBLOCK ? "another installtop patch runs this policy's night now (\(stampFile.path).lock)"
                : "cannot lock \(stampFile.path).lock: \(String(cString: strerror(reason)))"))
            return Self.stampProblem
        }
        defer { close(lock) }
        let stamp: NightStamp?
        do {
            stamp = try stampFile.read()
        } catch {
            StandardOutput.stderr.line("installtop: \(error); nothing is patched until it is removed or repaired")
            return Self.stampProblem
        }
        if let stamp, stamp.isMissed(at: now, current: occurrence) {
            StandardOutput.stdout.line("the night of \(Self.span(stamp.window)) was missed: its window closed with "
                + "\(stamp.machine.steps.values.count { $0 == .pending }) hosts not patched (its stamp: \(stampFile.path))")
        }
        guard let occurrence else {
            StandardOutput.stdout.line("no window: none of the policy's windows opens within \(WindowSchedule.horizonDays) days; nothing done")
            return Self.nothingToDo
        }
        guard occurrence.isOpen(at: now) else {
            StandardOutput.stdout.line("no window is open: the next opens \(Self.span(occurrence)); nothing done")
            return Self.nothingToDo
        }
        var resuming = false
        var machine = NightMachine(waves: policy.hostWaves, atOnce: policy.waves.atOnce,
                                   tolerated: policy.failureBudget.tolerated(of: policy.hosts.names.count))
        let fresh = "night of \(Self.span(occurrence)): \(policy.hosts.names.count) hosts in \(machine.waves.count) waves"
        switch NightResumption.decide(stamp: stamp, policy: policyPath, window: occurrence) {
        case .fresh:
            StandardOutput.stdout.line(fresh)
        case .resume(let stamped):
            machine = stamped
            resuming = true
            StandardOutput.stdout.line("resuming the night of \(Self.span(occurrence)) from its stamp \(stampFile.path)")
        case .over(let phase) where again:
            StandardOutput.stdout.line("the night of this window was over (\(Self.words(phase))); again: " + fresh)
        case .over(let phase):
            StandardOutput.stdout.line("the night of \(Self.span(occurrence)) is over already (\(Self.words(phase))); nothing done until the next window, "
                + "or --again to start a new night now")
            return Self.nothingToDo
        case .foreign(let other):
            StandardOutput.stderr.line("installtop: \(stampFile.path) is the stamp of \(other) (or of another installtop) for this window; nothing is patched")
            return Self.stampProblem
        }
        return runLoop(machine, resuming: resuming, window: occurrence, stampFile: stampFile)
    }

    /// Runs the night on the cooperative pool and waits here for it.
    private func runLoop(_ machine: NightMachine, resuming: Bool, window: WindowOccurrence, stampFile: StampFile) -> Int32 {
        let notifier = PatchNotifier(command: policy.notify, policyPath: policyPath, window: window)
        // The age gate's clock runs from the night's own `now` (a test's `--now` shifts it).
        let offset = now - Int(time(nil))
        let hosts = NightHosts(policy: policy, policyPath: policyPath, commands: ssh.commands(for: policy), windowStart: window.start,
                               windowEnd: window.end, checksDirectory: checksDirectory, clock: { Int(time(nil)) + offset },
                               rebootPlaces: RebootPlaces(count: policy.reboot.atOnce))
        // The package kind that patches hosts in a night (apt's), as registered.
        guard let runner = EngineHost.nightHostRunner(hosts) else {
            StandardOutput.stderr.line("installtop: no package kind of this installtop patches hosts in a night")
            return Self.refused
        }
        let policyPath = policyPath
        let loop = NightLoop(runner: runner, writeStamp: { machine in
            try stampFile.write(NightStamp(policy: policyPath, window: window, machine: machine))
        }, notify: { notice, machine in
            await notifier.tell(notice, machine: machine)
        }, say: { StandardOutput.stdout.line($0) })
        // The window's end on the wall clock, from the night's own `now`.
        let left = Duration.seconds(max(0, window.end - now))
        let ended = Mutex<Result<NightMachine, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            if !resuming {
                // Written before anything else: a process stopped now resumes this night.
                do {
                    try stampFile.write(NightStamp(policy: policyPath, window: window, machine: machine))
                } catch {
                    ended.withLock { $0 = .failure(error) }
                    done.signal()
                    return
                }
                await notifier.tell(nil, machine: machine)
            }
            do {
                let last = try await loop.run(machine, resuming: resuming) { try? await Task.sleep(for: left) }
                ended.withLock { $0 = .success(last) }
            } catch {
                ended.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        switch ended.withLock({ $0 }) {
        case .success(let last)?:
            if case .finished = last.phase { return Self.finished }
            return Self.stopped
        case .failure(let error)?:
            StandardOutput.stderr.line("installtop: \(error); no host is started without its stamp (an armed run not kept is undone by its host)")
            return Self.stampProblem
        case nil:
            return Self.stampProblem
        }
    }

    /// `2026-11-24 01:00–04:00 UTC`, in UTC.
    static func span(_ window: WindowOccurrence) -> String {
        let start = NightSummary.text(window.start), end = NightSummary.text(window.end)
        let day = start.prefix(10)
        let endText = end.hasPrefix(day) ? String(end.dropFirst(11).prefix(5)) : String(end.prefix(16).map { $0 == "T" ? " " : $0 })
        return "\(day) \(start.dropFirst(11).prefix(5))–\(endText) UTC"
    }

    /// `finished`, `stopped: wave 1 did not pass its gate: …`.
    static func words(_ phase: NightPhase) -> String {
        switch phase {
        case .finished: "finished"
        case .stopped(let reason): "stopped: \(reason.sentence)"
        case .draining(let reason): "stopping: \(reason.sentence)"
        case .patching(let wave): "patching wave \(wave + 1)"
        case .gating(let wave): "gating wave \(wave + 1)"
        }
    }
}
