import InstallDrivers
import InstallEngine
import InstallHistory
import Synchronization

/// The armed jobs an engine runs (a package job's confirm request), from their queueing to their
/// end: found through their kind (`EngineHost.arming(of:)`) and registered by name just before
/// they are queued (as their run slots are), known by number from their `job.queued`, and armed
/// once their `job.completed` has been recorded (`ConfirmWindowArming`, on a queue of its own:
/// the checks take seconds), their window naming the kind's tool for the revert. A job declined
/// or that never reached its tool's changes is never armed; it changed nothing.
final class EngineArmings: Sendable {
    private struct Armed {
        /// The kind whose tool reverts the run (`ConfirmWindow.tool`).
        let tool: String
        let arming: EngineArming
        /// The run the job's keeper reserved, which the recorder finished.
        let slot: JobRunSlot
    }

    private struct State {
        var byName: [String: Armed] = [:]
        var byJob: [Int: Armed] = [:]
    }

    private let state = Mutex(State())
    private let store: HistoryStore
    /// The history's path, which systemd's timer names.
    private let historyDatabase: String
    private let log: @Sendable (String) -> Void
    /// Told each run armed (or found not undoable), so that clients hear of it at once.
    private let told: @Sendable () -> Void
    /// The checks read the history and the package database: on the blocking pool, in order.
    private let work = SerialWorkQueue(runningOn: .blockingPool)

    init(store: HistoryStore, historyDatabase: String, log: @escaping @Sendable (String) -> Void, armed: @escaping @Sendable () -> Void) {
        self.store = store
        self.historyDatabase = historyDatabase
        self.log = log
        self.told = armed
    }

    /// `driver`'s job, about to be queued as `name`, is watched when it is armed.
    func register(_ driver: (any JobDriver)?, forJobNamed name: String) {
        guard let (tool, arming, slot) = EngineHost.arming(of: driver) else { return }
        state.withLock { $0.byName[name] = Armed(tool: tool, arming: arming, slot: slot) }
    }

    /// Follows one engine event; call it after the history's recorder has taken it.
    func handle(_ event: EngineEvent) {
        switch event.kind {
        case .jobQueued(let descriptor):
            state.withLock { state in
                if let armed = state.byName.removeValue(forKey: descriptor.name) { state.byJob[descriptor.id] = armed }
            }
        case .jobCompleted(let completion):
            guard let armed = state.withLock({ $0.byJob.removeValue(forKey: completion.job) }) else { return }
            work.enqueue { [self] in arm(armed, job: completion.job) }
        case .jobCleanedUp:
            // Declined before it ran: nothing to arm.
            state.withLock { _ = $0.byJob.removeValue(forKey: event.job) }
        default:
            break
        }
    }

    private func arm(_ armed: Armed, job: Int) {
        guard let run = armed.slot.reserved, let baseline = armed.arming.baseline else {
            log("job \(job): not armed: it ended before dpkg ran, and changed nothing")
            return
        }
        let request = armed.arming.request
        let root = armed.arming
        let restartedServices = root.restartedServices()
        let arming = ConfirmWindowArming(store: store, baseline: baseline, probe: root.probe, seconds: request.seconds,
                                         revertOnRegression: request.revertOnRegression, locate: { window in
                                             window.tool = armed.tool
                                             window.aptConfig = root.aptConfig
                                             window.chroot = root.chroot
                                             window.restartedServices = restartedServices
                                         }, halfWay: EngineHost.halfWayPackages(administrativeDirectory:))
        switch arming.arm(run: run) {
        case .armed(let window, _):
            let regressed = window.regressions.map(\.text).joined(separator: "; ")
            // The deadline handed to systemd too, as `--confirm` does: an engine killed in the
            // window is no reason for the run to stay.
            let timer = RevertTimer.schedule(window: window, historyDatabase: historyDatabase)
            log("run \(run) (job \(job)) armed: confirm it by \(ConfirmWindowText.time(window.deadline)) UTC "
                + "(installtop confirm --run \(run)), or it is reverted" + (regressed.isEmpty ? "" : "; regressed: \(regressed)")
                + "; " + timer.whoReverts(run: run, historyDatabase: historyDatabase))
        case .notUndoable(let reason):
            log("run \(run) (job \(job)) is not armed: it cannot be undone: \(reason)")
        case .notRecorded(let error):
            log("run \(run) (job \(job)) is not armed: the history cannot record it: \(error)")
        }
        told()
    }
}
