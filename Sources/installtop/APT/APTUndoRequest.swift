import InstallDrivers
import InstallEngine
import InstallHistory

/// The reverse of a job run as one apt request (Documentation/UNDO.md): each version it replaced
/// put back from its kept .deb (an upgraded package downgraded, a removed one reinstalled), each
/// package it installed removed, all in one transaction, which apt resolves against the kept
/// files (the archive need not offer them). Refused, changing nothing, when the run cannot be
/// undone now or a package is no longer as the run left it.
enum APTUndoRequest {
    /// The request that undoes `run`, checked against what dpkg has installed now.
    /// - Throws: `UndoRefusal`: the run's own reason (`JobRun.notUndoableBecause`), or a
    ///   package changed outside installtop since, saying what is installed now.
    static func request(undoing run: JobRun, installed: [String: APTPackageState]) throws(UndoRefusal) -> PackageRequest {
        if let reason = run.notUndoableBecause { throw UndoRefusal(message: "run \(run.id) cannot be undone: \(reason)") }
        guard run.kind == "apt" else {
            throw UndoRefusal(message: "run \(run.id) is a \(run.kind) run, not apt's: installtop \(run.kind) undo \(run.id) undoes it")
        }
        var debs: [String] = []
        var removing: [String] = []
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
                let kept = run.kept.first { $0.package == package.name && $0.version == package.oldVersion && $0.file != nil && $0.prunedAt == nil }
                guard let file = kept?.file else {
                    throw UndoRefusal(message: "run \(run.id) cannot be undone: no kept version of \(package.name)")
                }
                debs.append(file)
            case .reinstall:
                // The same version again: there is nothing to put back.
                continue
            }
        }
        guard !debs.isEmpty || !removing.isEmpty else {
            throw UndoRefusal(message: "run \(run.id) changed nothing an undo could put back")
        }
        return .undo(run: Int(run.id), debs: debs, removing: removing)
    }
}
