#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import InstallDrivers
import InstallEngine
import InstallHistory

/// An apt job armed with `--confirm` (`CommitConfirmedSession`): planned with apt in its root,
/// refused by `ArmingRefusal` from the plan and dpkg's database, run here (`APTSession`, never
/// handed to the machine's engine, whose history it may share), its window recording the apt
/// root the job acted on.
struct APTArmedJob: ArmedJob {
    typealias Kind = APTPackageCommands

    let request: PackageRequest
    let options: APTOptions

    var name: String { APTJobKind.summary(of: request) }
    var runOptions: RunOptions { options.run }
    var yes: Bool { options.yes }

    /// The chroot, absolute, as the plan and the window name it.
    private var chroot: String? { options.chroot.map { URL(fileURLWithPath: $0).standardizedFileURL.path } }

    func runUnarmed() -> ExitStatus {
        APTSession(request: request, options: options, route: .here).run()
    }

    func prepare() -> ArmingPreparation {
        let plan: APTPlan
        PlanningNotice.say(name)
        do {
            plan = try APTPlanner.plan(PackageJob(request: request, aptConfig: options.aptConfig, chroot: chroot))
        } catch {
            return .unplanned(error.message)
        }
        if plan.isEmpty { return .nothingToDo(APTPlanText.nothingToDo(for: request)) }
        let refusals = ArmingRefusal.reasons(for: plan)
        guard refusals.isEmpty else { return .refused(refusals) }
        return .armable(rebootOnly: ArmingRefusal.rebootOnly(plan.changes))
    }

    func runJob() -> ExitStatus {
        var session = APTSession(request: request, options: options, route: .here)
        session.armed = true
        return session.run()
    }

    func locate(_ window: inout ConfirmWindow) {
        window.tool = tool
        window.aptConfig = EngineIdentity.aptRoot(given: options.aptConfig, environment: ProcessInfo.processInfo.environment)
        window.chroot = chroot
    }

    func halfWay(in administrativeDirectory: String) -> [String: HalfWayPackage] {
        HalfWayLookup.packages(administrativeDirectory: administrativeDirectory)
    }
}
