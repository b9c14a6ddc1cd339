#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineDaemon
import EngineWire
import InstallHistory
import MonitorRuntime
import InstallEngine
import TerminalUI

/// One host's armed run after its job ended (Documentation/COMMIT-CONFIRMED.md), for
/// `installtop apt upgrade --hosts … --confirm D` and a patch night's host step: waits for its
/// engine to say the run's window (the `armed` event whose run has the job's name and was armed
/// since the job ended), says it, and with `confirmByLogin` keeps it once a fresh ssh login to
/// the host works and none of its checks regressed. The host is upgraded when its run is armed
/// (and kept, by login); failed when the run was not armed, was reverted at once (a regressed
/// check with `--revert-on-regression`), or a login did not keep it (it reverts at its deadline).
/// A patch night reboots the host between arming and keeping (`beforeKeeping`); once it is
/// back, the run's checks are run again by its engine before it may be kept.
struct ArmedHostFollower {
    let command: SSHCommand
    let client: EngineClient
    /// The job's name, which its run is recorded under.
    let jobName: String
    /// When the job ended, on the host's clock: the window is armed after it.
    let endedAt: Date
    let confirmByLogin: Bool
    /// A run whose name starts with `jobName` counts too: a restarted patch night knows its
    /// jobs' names only up to the plan's summary.
    var matchingPrefix = false
    /// How long the engine may take to say the window: `defaultArmingTimeout`, or less where
    /// the run is known to have been armed before (the engine says its windows right after its
    /// snapshot).
    var armingTimeout = Self.defaultArmingTimeout
    /// The job was armed with `revertOnRegression`: a run whose check regressed is reverted by
    /// its engine at once, which the verdict says instead of the deadline.
    var revertsOnRegression = false
    /// Runs once the run is armed, before the job's outcome is looked at and the run is kept:
    /// a patch night reboots the host here (also after a failed job, whose run stays armed).
    /// Given the armed run and whether the job succeeded.
    var beforeKeeping: ((ArmedRun, Bool) -> ArmedKeepingStep)?

    /// How long the engine may take to arm the run (its checks run after the job, each up to
    /// a minute).
    static let defaultArmingTimeout = Duration.seconds(600)

    var host: String { command.host }

    /// The host's outcome, from the job's own.
    func follow(after job: APTHostsUpgrade.Outcome) -> APTHostsUpgrade.Outcome {
        verdict(after: job).outcome
    }

    /// What became of the run, from the job's own outcome: the window's state, then the
    /// confirmation by login.
    func verdict(after job: APTHostsUpgrade.Outcome) -> ArmedHostVerdict {
        var run: ArmedRun
        switch window(on: client, timeout: armingTimeout, run: nil) {
        case .success(let found): run = found
        case .failure(let why): return .notArmed("its run was not armed: \(why)")
        }
        let deadline = ConfirmWindowText.time(run.deadline) + " UTC"
        let regressed = run.regressions.joined(separator: "; ")
        switch run.state {
        case .armed:
            StandardOutput.stdout.line("\(host): run \(run.run) armed: kept only if confirmed by \(deadline) "
                + "(installtop confirm --host \(host) --run \(run.run)), else its host undoes it")
            if !regressed.isEmpty { StandardOutput.stdout.line("\(host): run \(run.run): regressed: \(regressed)") }
        case .reverting, .reverted:
            return .reverts("run \(run.run) reverted at once: \(run.reason ?? regressed)")
        case .confirmed:
            return .confirmedAlready("run \(run.run) is not armed: \(run.reason ?? run.state.rawValue)")
        case .expired:
            return .notArmed("run \(run.run) is not armed: \(run.reason ?? run.state.rawValue)")
        }
        var link = client
        var reconnected: EngineClient?
        defer { reconnected?.close() }
        let succeeded = if case .succeeded = job { true } else { false }
        switch beforeKeeping?(run, succeeded) ?? .goOn {
        case .goOn:
            break
        case .stop(let verdict):
            return verdict
        case .reconnected(let fresh):
            reconnected = fresh
            link = fresh
            // The engine says its windows right after the snapshot of a new link.
            switch window(on: fresh, timeout: DaemonRequest.replyTimeout, run: run.run) {
            case .success(let found): run = found
            case .failure(let why): return .reverts("run \(run.run) could not be read again after its host came back (\(why)); its host undoes it at \(deadline) unless confirmed")
            }
            guard run.state == .armed else {
                return .reverts("after its host came back, run \(run.run) is \(run.state.rawValue): \(run.reason ?? "its engine ended its window")")
            }
            if let verdict = checksAfterTheBoot(of: run, on: fresh, deadline: deadline) { return verdict }
        }
        let regressedNow = run.regressions.joined(separator: "; ")
        guard case .succeeded = job else { return .jobFailed(job) }
        guard confirmByLogin else { return .leftArmed(job) }
        guard regressedNow.isEmpty else {
            if revertsOnRegression { return .reverts("run \(run.run) not kept: \(regressedNow) regressed; its host reverts it at once") }
            return .reverts("run \(run.run) not kept by login: \(regressedNow) regressed; it is undone at \(deadline) unless confirmed")
        }
        if let failure = FreshLogin.check(command) {
            return .reverts("a fresh ssh login failed (\(failure)): run \(run.run) not kept; its host undoes it at \(deadline)")
        }
        do throws(DaemonError) {
            let reply = try link.request(.confirmRun(run: run.run, extend: nil), timeout: DaemonRequest.replyTimeout)
            StandardOutput.stdout.line("\(host): a fresh ssh login works: " + (reply.fields["said"]?.stringValue ?? "run \(run.run) kept"))
            return .kept
        } catch {
            return .reverts("a fresh ssh login works, but run \(run.run) could not be kept: \(error); its host undoes it at \(deadline)")
        }
    }

    /// The run's checks run again by its engine over `link` once its host is back from its
    /// reboot (`checkRun`): what only the boot brings into use (a kernel, a library a service
    /// loads at its start) is judged too. Says the checks' word; `nil` when they passed, else
    /// the verdict: a regression is recorded in the window, whose engine reverts it at once
    /// when it asked for that; checks that could not be run keep the run from being kept.
    private func checksAfterTheBoot(of run: ArmedRun, on link: EngineClient, deadline: String) -> ArmedHostVerdict? {
        let checked: ChecksRunAgain
        do {
            checked = try ChecksRunAgain(fields: link.request(.checkRun(run: run.run), timeout: DaemonRequest.replyTimeout).fields)
        } catch {
            let why = TextEnvironment.sanitizer.sanitize("\(error)")
            StandardOutput.stdout.line("\(host): checks after the boot: not run: \(why)")
            return .reverts("run \(run.run)'s checks could not be run again after its reboot (\(why)): not kept; its host undoes it at \(deadline)")
        }
        guard !checked.regressions.isEmpty else {
            StandardOutput.stdout.line("\(host): checks after the boot: passed")
            return nil
        }
        let regressed = TextEnvironment.sanitizer.sanitize(checked.regressions.joined(separator: "; "))
        let then = checked.reverts ? "its host reverts it at once" : "its host undoes it at \(deadline) unless confirmed"
        StandardOutput.stdout.line("\(host): checks after the boot: \(regressed) regressed; \(then)")
        return .reverts("run \(run.run) not kept: \(regressed) regressed after its reboot; \(then)")
    }

    /// The run's window as the engine pushes it over `client` within `timeout`: run number
    /// `number`, or (`nil`) the one of the job's name armed since it ended.
    private func window(on client: EngineClient, timeout: Duration, run number: Int?) -> Result<ArmedRun, WindowMissing> {
        let giveUp = ContinuousClock.now + timeout
        do throws(DaemonError) {
            while ContinuousClock.now < giveUp {
                guard let message = try client.nextMessage(timeout: giveUp - ContinuousClock.now) else { break }
                guard case .armed(let runs) = message else { continue }
                // A second of slack: the host's clock wrote both times, rounded.
                if let run = runs.runs.first(where: { candidate in
                    if let number { return candidate.run == number }
                    return (matchingPrefix ? candidate.name.hasPrefix(jobName) : candidate.name == jobName)
                        && candidate.armedAt >= endedAt.addingTimeInterval(-1)
                }) {
                    return .success(run)
                }
            }
            return .failure(WindowMissing(description: "its engine said nothing of it within \(timeout.shortText) "
                + "(its log says why: installtop serve's journal)"))
        } catch {
            return .failure(WindowMissing(description: "\(error)"))
        }
    }

    private struct WindowMissing: Error, CustomStringConvertible {
        let description: String
    }
}
