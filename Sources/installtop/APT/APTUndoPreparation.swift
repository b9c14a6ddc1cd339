import InstallDrivers
import InstallEngine
import InstallHistory

/// The undo of one job run made ready to plan (Documentation/UNDO.md), the same for `installtop apt
/// undo` and for `u` in a monitor's history view (`APTUndoPlanning`): the history's run, checked
/// against dpkg's database where the undo will act, turned into one apt request whose kept
/// files apt can read (`APTUndoStaging`), and what apt had marked automatic before it. After
/// the undo's job, `finish()` puts back what a local .deb does not (the automatic marks) and
/// removes what was staged.
struct APTUndoPreparation {
    let run: JobRun
    /// The undo as apt is asked for it, kept files named as apt sees them.
    let request: PackageRequest
    let environment: APTEnvironment
    let staging: APTUndoStaging
    /// What apt had marked automatically installed before the undo.
    let automaticBefore: Set<String>
    /// What the undo leaves as dpkg has it, a line a package (`APTUndoRequest`): said before the
    /// yes, and in the job's name for the monitor's `u`.
    let leaves: [String]

    /// Resolves `run` (as `HistoryRunLookup` found it) for the apt root `aptConfig`/`chroot`.
    /// - Throws: `UndoRefusal` (nothing was changed): a run that cannot be undone now, a
    ///   package changed outside installtop since, a kept file that cannot be put where apt
    ///   reads it.
    static func prepare(undoing run: JobRun, aptConfig: String?, chroot: String?) throws(UndoRefusal) -> APTUndoPreparation {
        let environment: APTEnvironment
        do {
            environment = try APTEnvironment.resolve(aptConfig: aptConfig, chroot: chroot)
        } catch {
            throw UndoRefusal(message: error.message)
        }
        let installed = APTPackageState.query(administrativeDirectory: environment.administrativeDirectory)
        let (request, leaves) = try APTUndoRequest.request(undoing: run, installed: installed)
        let automatic = APTAutoMarks.automatic(in: environment)
        guard case .undo(let undone, let debs, let removing) = request else {
            return APTUndoPreparation(run: run, request: request, environment: environment, staging: APTUndoStaging(folder: nil),
                                      automaticBefore: automatic, leaves: leaves)
        }
        let (staging, named) = try APTUndoStaging.stage(debs, as: "undo-\(undone)", chroot: environment.chroot)
        return APTUndoPreparation(run: run, request: .undo(run: undone, debs: named, removing: removing), environment: environment,
                                  staging: staging, automaticBefore: automatic, leaves: leaves)
    }

    /// What the undo's transaction will replace, as apt's hook will name it: each upgraded
    /// package's version now (the undo downgrades it) and each installed one (the undo removes
    /// it). Kept ahead of apt's hook (`APTKeepingAhead`): with `--yes` apt resolves alone, and
    /// this is known before it starts.
    var expectedChanges: [PackageChange] {
        run.packages.filter(\.changedThePackage).compactMap { package in
            switch package.action {
            case .upgrade: PackageChange(package: package.name, action: .upgrade, oldVersion: package.newVersion, newVersion: package.oldVersion)
            case .install: PackageChange(package: package.name, action: .remove, oldVersion: package.newVersion)
            case .reinstall, .remove, .purge: nil
            }
        }
    }

    /// When no undo job ran after all (apt refused the plan, the queue refused the job): only
    /// what `prepare` staged goes.
    func discard() {
        staging.remove()
    }

    /// After the undo's job, whatever its end: removes the staged files, gives dpkg back its
    /// record of the conffiles of packages put back from rebuilt .debs, and marks automatic
    /// again the packages apt had marked so (installing a local .deb marks it manual). Each
    /// acts only on what the undo did put back: a declined or failed undo changes nothing here.
    /// - Returns: what could not be done, for a warning; the packages are back all the same.
    func finish() -> [String] {
        staging.remove()
        var warnings: [String] = []
        let putBack = Self.keptVersionsPutBack(by: run)
        if let failure = restoreConffileRecords(putBack) { warnings.append(failure) }
        // Upgraded packages still carry today's mark; removed ones lost theirs with them, so the
        // mark recorded when they were kept counts (rule 36), for those the undo installed
        // again (not after a declined or failed undo).
        let upgraded = run.packages.filter { $0.changedThePackage && $0.action == .upgrade }.map(\.name)
        let installed = APTPackageState.query(administrativeDirectory: environment.administrativeDirectory)
        let wereAutomatic = Set(upgraded.filter(automaticBefore.contains))
            .union(putBack.filter { $0.automatic == true && installed[$0.package]?.status == "ii" }.map(\.package))
        if let failure = APTAutoMarks.markAutomatic(wereAutomatic.sorted(), in: environment) {
            warnings.append("packages installed automatically are now marked manual: \(failure)")
        }
        return warnings
    }

    /// The kept versions the undo installs, one per package: the same `APTUndoRequest` chose.
    static func keptVersionsPutBack(by run: JobRun) -> [KeptVersionRecord] {
        run.packages.filter { $0.changedTheVersion && $0.action != .install }.compactMap { package in
            run.usableKept(of: package)
        }
    }

    /// Gives dpkg back the original hashes of the conffiles of every package put back from a
    /// rebuilt .deb (which carried the conffiles as they were, edits included): an edited one
    /// stays known to dpkg as edited, so the next upgrade asks or keeps it rather than replacing
    /// it (rule 36). A cached original needs nothing: dpkg recorded its own hashes. Nothing
    /// changes for a package dpkg does not have at the kept version.
    /// - Returns: why it failed, for a warning: the packages are back, only dpkg's view of the
    ///   edits is not.
    private func restoreConffileRecords(_ putBack: [KeptVersionRecord]) -> String? {
        let rebuilt = putBack.filter { $0.source == APTKeptVersion.Source.rebuilt.rawValue && !$0.conffiles.isEmpty }
        guard !rebuilt.isEmpty else { return nil }
        // Only what the undo did put back: a declined or failed undo leaves nothing to write,
        // and then dpkg's locks are not even asked for.
        let installed = APTPackageState.query(administrativeDirectory: environment.administrativeDirectory)
        let restorations = rebuilt.filter { kept in
            installed[kept.package].map { $0.status == "ii" && $0.version == kept.version } ?? false
        }.map {
            DpkgConffileRecord.Restoration(package: $0.package, version: $0.version, architecture: $0.architecture, hashes: $0.conffiles)
        }
        guard !restorations.isEmpty else { return nil }
        do {
            _ = try DpkgConffileRecord.restore(restorations, administrativeDirectory: environment.administrativeDirectory)
            return nil
        } catch {
            return "dpkg now takes edited conffiles of rebuilt packages for the packages' own (the next upgrade may replace them): \(error)"
        }
    }
}
