#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallDrivers
import InstallEngine
import InstallHistory

/// A dnf job armed with `--confirm` (`CommitConfirmedSession`): planned by dnf in its root
/// (`DNFPlanner`, nothing fetched or changed), refused by `DNFArmingRefusal` from the plan and
/// the root's rpm database, run here (`DNFSession`), its window recording the root the job
/// acted on, where the revert (`installtop dnf revert`, the run's undo) acts.
struct DNFArmedJob: ArmedJob {
    typealias Kind = DNFPackageCommands

    let request: DNFRequest
    let options: DNFOptions

    var name: String { request.summary }
    var runOptions: RunOptions { options.run }
    var yes: Bool { options.yes }

    /// The root, absolute; `nil` for this system.
    private var root: String? { options.installroot.map { URL(fileURLWithPath: $0).standardizedFileURL.path } }

    func runUnarmed() -> ExitStatus {
        DNFSession(request: request, options: options).run()
    }

    func prepare() -> ArmingPreparation {
        guard geteuid() == 0 else { return .unplanned("dnf jobs need root" + DNFPlanner.hint("permission")) }
        let job = DNFJob(request: request, installRoot: root, releaseVersion: options.releasever)
        let folder = DNFKindRegistration.helperFolder()
        defer { folder.remove() }
        let plan: DNFPlan
        PlanningNotice.say(name)
        do {
            plan = try DNFPlanner.plan(job, helper: try folder.helper())
        } catch {
            return .unplanned("\(error)")
        }
        if plan.isEmpty { return .nothingToDo(DNFPlanText.nothingToDo(for: request)) }
        let database = DNFRPMDatabase(root: root)
        let replaced = DNFArmingRefusal.replaced(plan.items)
        guard let installed = database.installed(Set(replaced)) else {
            return .unplanned("rpm cannot read the database of \(root ?? "this system")")
        }
        let refusals = DNFArmingRefusal.reasons(plan.items, installed: installed, unrebuildable: database.unrebuildable(replaced))
        guard refusals.isEmpty else { return .refused(refusals) }
        return .armable(rebootOnly: DNFArmingRefusal.rebootOnly(plan.items))
    }

    func runJob() -> ExitStatus {
        DNFSession(request: request, options: options).run()
    }

    func locate(_ window: inout ConfirmWindow) {
        window.tool = tool
        // As the run records it (`JobRunOrigin.installRoot`): `/` for this system.
        window.installRoot = root ?? "/"
    }

    /// rpm has no half-way state a run's undoability follows (a run whose engine died is
    /// settled from the rpm database instead).
    func halfWay(in administrativeDirectory: String) -> [String: HalfWayPackage] { [:] }
}
