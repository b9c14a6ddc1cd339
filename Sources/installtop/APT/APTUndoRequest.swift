import InstallDrivers
import InstallEngine
import InstallHistory

/// The reverse of a job run as one apt request (Documentation/UNDO.md): each version it replaced
/// put back from its kept .deb (an upgraded package downgraded, a removed one reinstalled), each
/// package it installed removed, all in one transaction, which apt resolves against the kept
/// files (the archive need not offer them). Refused, changing nothing, when the run cannot be
/// undone now or a package is no longer as the run left it.
///
/// A package whose update failed is put back too when dpkg has what the run brought: an
/// upgrade dpkg has at the run's new version, in any state (its postinst failed:
/// half-configured), from its kept old version (kept ahead of the transaction for every package of the plan);
/// an install dpkg has, removed. One with no kept version is left as dpkg has it, and said
/// (`leaves`), never skipped without a word.
enum APTUndoRequest {
    /// The request that undoes `run`, checked against what dpkg has installed now, and what it
    /// leaves: a line for each failed package dpkg has at the run's new version with no kept
    /// version to put back (`lab-fail half-configured at 2.0 (iF): no version of it was kept`).
    /// - Throws: `UndoRefusal`: the run's own reason (`JobRun.notUndoableBecause`), or a
    ///   package changed outside installtop since, saying what is installed now.
    static func request(undoing run: JobRun, installed: [String: APTPackageState])
        throws(UndoRefusal) -> (request: PackageRequest, leaves: [String]) {
        if let reason = run.notUndoableBecause { throw UndoRefusal(message: "run \(run.id) cannot be undone: \(reason)") }
        guard run.kind == "apt" else {
            throw UndoRefusal(message: "run \(run.id) is a \(run.kind) run, not apt's: installtop \(run.kind) undo \(run.id) undoes it")
        }
        var debs: [String] = []
        var removing: [String] = []
        var leaves: [String] = []
        for package in run.packages where !package.changedThePackage && package.action != .reinstall {
            // What a failed update left that dpkg has: the run's new version, in any state.
            let state = installed[package.name] ?? .notInstalled
            guard state.isPresent else { continue }
            switch package.action {
            case .install:
                removing.append(package.name)
            case .upgrade where state.version == package.newVersion:
                if let file = run.usableKept(of: package)?.file {
                    debs.append(file)
                } else {
                    leaves.append("\(package.name) \(state.description): no version of it was kept for this run")
                }
            case .upgrade, .remove, .purge, .reinstall:
                continue
            }
        }
        for package in run.packages where package.changedThePackage {
            let state = installed[package.name] ?? .notInstalled
            let change = PackageChange(package: package.name, action: package.action, oldVersion: package.oldVersion,
                                       newVersion: package.newVersion)
            guard state.satisfies(change) else {
                throw UndoRefusal(message: "\(package.name) was changed outside installtop since run \(run.id): dpkg has it "
                    + "\(state.description) now, not as the run left it (\(JobRunTable.versions(of: package)))")
            }
            switch package.action {
            case .install:
                removing.append(package.name)
            case .upgrade, .remove, .purge:
                guard let file = run.usableKept(of: package)?.file else {
                    throw UndoRefusal(message: "run \(run.id) cannot be undone: no kept version of \(package.name)")
                }
                debs.append(file)
            case .reinstall:
                // The same version again: there is nothing to put back.
                continue
            }
        }
        guard !debs.isEmpty || !removing.isEmpty else {
            let left = leaves.isEmpty ? "" : ": it leaves " + leaves.joined(separator: "; ")
            throw UndoRefusal(message: "run \(run.id) changed nothing an undo could put back" + left)
        }
        return (.undo(run: Int(run.id), debs: debs, removing: removing), leaves)
    }

    /// `; installtop apt repair RUN finishes what dpkg left half-way first` after apt's refusal to plan because dpkg
    /// was interrupted (`E: dpkg was interrupted, you must manually run 'dpkg --configure -a'`),
    /// whose own advice leaves a half-installed package as it is; empty for any other refusal.
    static func interruptedAdvice(_ aptMessage: String, run: Int) -> String {
        aptMessage.contains("dpkg was interrupted") ? "; installtop apt repair \(run) finishes what dpkg left half-way first" : ""
    }
}
