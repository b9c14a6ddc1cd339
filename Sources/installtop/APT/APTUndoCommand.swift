import ArgumentParser
import InstallDrivers
import InstallEngine
import InstallHistory

/// `installtop apt undo JOBRUN`: puts back every package a job run changed, from the versions
/// kept for it, as an uninstall job (PRODUCT.md "Undo"): planned and confirmed like any apt
/// job, `"undoOf"` in its `job.queued`, and the run marked undone once it succeeded. Packages
/// apt had marked automatic are marked so again afterwards (a local .deb makes them manual).
struct APTUndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "undo",
        abstract: "Put back every package a job run changed, from the versions kept for it.",
        discussion: """
            The run's upgraded packages go back to the versions it replaced (downgrades), the \
            packages it removed are installed again and those it installed are removed, in one \
            apt transaction resolved against the kept .debs, also when the archive no longer \
            offers them. Refused with exit status 2, changing nothing: a run the history does not \
            hold, a run that cannot be undone (installtop history --jobs says why), or a package \
            changed outside installtop since.
            """)

    @Argument(help: ArgumentHelp("The job run to undo (installtop history --jobs).", valueName: "jobrun"))
    var jobRun: Int

    @OptionGroup var options: APTOptions

    func run() throws {
        let request: PackageRequest
        let environment: APTEnvironment
        let run: JobRun
        let staging: APTUndoStaging
        do {
            (request, environment, run, staging) = try undoRequest()
        } catch {
            StandardOutput.stderr.line("installtop: apt undo \(jobRun): nothing was run: \(error.message)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
        let automatic = APTAutoMarks.automatic(in: environment)
        let status = APTSession(request: request, options: options).run()
        staging.remove()
        let putBack = Self.keptVersionsPutBack(by: run)
        restoreConffileRecords(putBack, in: environment)
        // Upgraded packages still carry today's mark; removed ones lost theirs with them, so the
        // mark recorded when they were kept counts (rule 36).
        let upgraded = run.packages.filter { $0.changedThePackage && $0.action == .upgrade }.map(\.name)
        let wereAutomatic = Set(upgraded.filter(automatic.contains)).union(putBack.filter { $0.automatic == true }.map(\.package))
        if let failure = APTAutoMarks.markAutomatic(wereAutomatic.sorted(), in: environment) {
            StandardOutput.stderr.line("installtop: apt undo \(jobRun): packages installed automatically are now marked manual: \(failure)")
        }
        throw ExitCode(status.rawValue)
    }

    /// The kept versions the undo installs, one per package: the same `APTUndoRequest` chose.
    static func keptVersionsPutBack(by run: JobRun) -> [KeptVersionRecord] {
        run.packages.filter { $0.changedThePackage && $0.action != .install && $0.action != .reinstall }.compactMap { package in
            run.kept.first { $0.package == package.name && $0.version == package.oldVersion && $0.file != nil && $0.prunedAt == nil }
        }
    }

    /// Gives dpkg back the original hashes of the conffiles of every package put back from a
    /// rebuilt .deb (which carried the conffiles as they were, edits included): an edited one
    /// stays known to dpkg as edited, so the next upgrade asks or keeps it rather than replacing
    /// it (rule 36). A cached original needs nothing: dpkg recorded its own hashes. A failure is
    /// a warning: the packages are back, only dpkg's view of the edits is not.
    private func restoreConffileRecords(_ putBack: [KeptVersionRecord], in environment: APTEnvironment) {
        let rebuilt = putBack.filter { $0.source == APTKeptVersion.Source.rebuilt.rawValue && !$0.conffiles.isEmpty }
        guard !rebuilt.isEmpty else { return }
        // Only what the undo did put back: a declined or failed undo leaves nothing to write,
        // and then dpkg's locks are not even asked for.
        let installed = APTPackageState.query(administrativeDirectory: environment.administrativeDirectory)
        let restorations = rebuilt.filter { kept in
            installed[kept.package].map { $0.status == "ii" && $0.version == kept.version } ?? false
        }.map {
            DpkgConffileRecord.Restoration(package: $0.package, version: $0.version, architecture: $0.architecture, hashes: $0.conffiles)
        }
        do {
            _ = try DpkgConffileRecord.restore(restorations, administrativeDirectory: environment.administrativeDirectory)
        } catch {
            StandardOutput.stderr.line("installtop: apt undo \(jobRun): dpkg now takes edited conffiles of rebuilt packages "
                + "for the packages' own (the next upgrade may replace them): \(error)")
        }
    }

    /// The history's run, checked against dpkg's database where the undo will act; the request,
    /// where it acts, the run, and the kept files put where apt can read them.
    private func undoRequest() throws(APTUndoRefusal) -> (PackageRequest, APTEnvironment, JobRun, APTUndoStaging) {
        guard !options.run.history.noHistory else {
            throw APTUndoRefusal(message: "an undo needs the history (--no-history records no run to undo)")
        }
        let run: JobRun?
        do {
            let store = try HistoryStore(path: options.run.history.historyDb ?? HistoryStore.defaultPath(), createIfMissing: false)
            run = try store.jobRun(Int64(jobRun))
        } catch .missingDatabase(let path) {
            throw APTUndoRefusal(message: "there is no history at \(path), so no run \(jobRun) to undo")
        } catch {
            throw APTUndoRefusal(message: "the history cannot be read: \(error)")
        }
        guard let run else {
            throw APTUndoRefusal(message: "the history holds no run \(jobRun) (a --no-history run records none): installtop history --jobs lists them")
        }
        let environment: APTEnvironment
        do {
            environment = try APTEnvironment.resolve(aptConfig: options.aptConfig, chroot: options.chroot)
        } catch {
            throw APTUndoRefusal(message: error.message)
        }
        let request = try APTUndoRequest.request(undoing: run,
                                                 installed: APTPackageState.query(administrativeDirectory: environment.administrativeDirectory))
        guard case .undo(let undone, let debs, let removing) = request else { return (request, environment, run, APTUndoStaging(folder: nil)) }
        let (staging, named) = try APTUndoStaging.stage(debs, run: undone, chroot: environment.chroot)
        return (.undo(run: undone, debs: named, removing: removing), environment, run, staging)
    }
}
