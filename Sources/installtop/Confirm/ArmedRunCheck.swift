#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import InstallHistory

/// An armed run's checks run again now (the engine's `checkRun`: a patch night's host back
/// from its reboot, Documentation/COMMIT-CONFIRMED.md): the checks its window recorded (the
/// built-in ones, its checks folder, its `--check` commands: `HealthProbe` as the arming ran
/// them), compared with the checks before its job by the rule of the arming
/// (`HealthComparison`: a check that passed before and fails now regressed, one that failed
/// before did not), and recorded in its window (`HistoryStore.recordChecksAgain`): the new
/// after, and a regression added to the window's. A window that reverts on a regression is then
/// due at once, and its engine reverts it as after the job. A run not armed is refused,
/// nothing run.
struct ArmedRunCheck {
    let jobRun: Int64
    let historyDatabase: String
    /// The probe of a window's recorded checks.
    var probe: (_ commands: [String], _ checksDirectory: String) -> HealthProbe = { HealthProbe(commands: $0, checksDirectory: $1) }

    enum Outcome {
        case checked(ChecksRunAgain)
        /// Not armed, or its window does not say its checks: nothing ran.
        case refused(String)
        /// The history could not be read or written.
        case failed(String)
    }

    func take() -> Outcome {
        let store: HistoryStore
        let found: (window: ConfirmWindow, baseline: [HealthObservation])?
        do {
            store = try HistoryStore(path: historyDatabase, createIfMissing: false)
            found = try store.confirmWindowAndBaseline(of: jobRun)
        } catch {
            return .failed("\(error)")
        }
        guard let (window, baseline) = found else {
            return .refused("run \(jobRun) was not armed (no --confirm): it has no checks to run again")
        }
        guard window.state == .armed else { return .refused(Self.notArmed(window)) }
        guard let commands = window.checks, let folder = window.checksDirectory else {
            return .refused("run \(jobRun)'s window does not say which checks it ran (it was armed by an older installtop): "
                + "they are not run again")
        }
        let checkedAgain = probe(commands, folder).observe()
        let regressions = HealthComparison.regressions(before: baseline, after: checkedAgain)
        let recorded: (recorded: ConfirmWindow?, current: ConfirmWindow?)
        do {
            recorded = try store.recordChecksAgain(of: jobRun, checkedAfter: checkedAgain, regressions: regressions)
        } catch {
            return .failed("\(error)")
        }
        guard let now = recorded.recorded else {
            // Decided while the checks ran (a confirmation, a revert): that stands.
            return .refused(recorded.current.map(Self.notArmed) ?? "run \(jobRun) was not armed: it has no checks to run again")
        }
        let reverts = now.revertOnRegression && !regressions.isEmpty
        let said: String
        if regressions.isEmpty {
            said = "run \(jobRun): checks run again: passed"
        } else {
            said = "run \(jobRun): checks run again: " + regressions.map(\.text).joined(separator: "; ") + " regressed; "
                + (reverts ? "it is reverted at once" : "it is undone at \(ConfirmWindowText.time(now.deadline)) UTC unless confirmed")
        }
        return .checked(ChecksRunAgain(said: said, regressions: regressions.map(\.text), reverts: reverts))
    }

    /// Why `window`'s checks are not run again: `run 12 is not armed: it was confirmed at …`.
    static func notArmed(_ window: ConfirmWindow) -> String {
        let at = window.decidedAt.map { " at \(ConfirmWindowText.time($0)) UTC" } ?? ""
        let why = window.reason.map { ": \($0)" } ?? ""
        let state = switch window.state {
        case .armed: "armed"
        case .confirmed: "it was confirmed" + at
        case .reverting: "it is being reverted" + why
        case .reverted: "it was reverted" + at + why
        case .expired: "its window expired" + at + why
        }
        return "run \(window.run) is not armed: \(state); its checks are not run again"
    }
}
