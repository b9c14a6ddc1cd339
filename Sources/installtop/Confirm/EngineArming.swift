#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallHistory
import Synchronization

/// The arming of one package job that an engine runs (`PackageJob.confirm`: the board's `U`
/// with a confirm window, `installtop apt upgrade --hosts … --confirm`): its keeper takes the
/// host's health when apt's hook gives the plan, after the downloads and before dpkg runs
/// (`takeBaseline`); once the job has ended and been recorded, the engine checks again and
/// records the window (`ConfirmWindowArming`). A job that never reached dpkg has no baseline
/// and is never armed: it changed nothing.
final class EngineArming: Sendable {
    let request: ConfirmRequest
    /// The apt root the job acts on, which the revert acts on too.
    let aptConfig: String?
    let chroot: String?
    private let taken = Mutex<[HealthObservation]?>(nil)
    /// Each active service's invocation before the job (`ServiceInvocations`); `nil` where
    /// systemd does not run.
    private let invocations = Mutex<[String: String]?>(nil)

    init(request: ConfirmRequest, aptConfig: String?, chroot: String?) {
        self.request = request
        self.aptConfig = aptConfig
        self.chroot = chroot
    }

    /// The checks the request names.
    var probe: HealthProbe {
        HealthProbe(commands: request.checks, checksDirectory: request.checksDirectory ?? ConfirmOptions.defaultChecksDirectory)
    }

    /// Takes the health before the job; the first call's is kept (a retry of the job runs on
    /// a host changed by its first try, which is not "before").
    func takeBaseline() {
        guard baseline == nil else { return }
        let observations = probe.observe()
        let services = ServiceInvocations(tools: .current()).now()
        let first = taken.withLock { taken -> Bool in
            guard taken == nil else { return false }
            taken = observations
            return true
        }
        if first { invocations.withLock { $0 = services } }
    }

    /// The services the job restarted (their invocations changed since the baseline); `nil`
    /// where systemd does not run.
    func restartedServices() -> [String]? {
        ServiceInvocations.restarted(before: invocations.withLock { $0 }, after: ServiceInvocations(tools: .current()).now())
    }

    /// The health before the job; `nil` until apt's hook came (then nothing ran).
    var baseline: [HealthObservation]? { taken.withLock { $0 } }
}
