import InstallDrivers
import InstallEngine
import InstallHistory

/// The reverse of a dnf job run as one dnf request (Documentation/DNF-JOBS.md, "Undo"): each
/// version it took away put back from its kept rpm (an upgraded package downgraded, a removed or
/// obsoleted one installed again), each package it installed removed, in one transaction that
/// dnf resolves against the kept files (the repositories need not offer them any more). Refused,
/// changing nothing, when the run cannot be undone now or a package is no longer as the run
/// left it.
enum DNFUndoRequest {
    /// The job that undoes `run`: in the root the run recorded (or `named`, `--installroot`,
    /// for a run recorded without one), its request checked against that root's rpm database.
    /// The same for `installtop dnf undo` and `u` in a monitor's history view.
    /// - Throws: `UndoRefusal` (nothing changed): what `request` refuses, another root
    ///   named, a root dnf cannot act on, a database rpm cannot read.
    static func job(undoing run: JobRun, named: String?) throws(UndoRefusal) -> DNFJob {
        try checkKind(of: run)
        let root = try root(of: run, named: named)
        // rpm is asked only where the undo acts: never this Debian system's home database.
        do {
            try DNFPlanner.checkRoot(of: DNFJob(request: .remove([]), installRoot: root))
        } catch {
            throw UndoRefusal(message: error.description)
        }
        guard let installed = DNFRPMDatabase(root: root).installed(Set(run.packages.map(\.name))) else {
            throw UndoRefusal(message: "rpm cannot read the database of \(root ?? "this system")")
        }
        return DNFJob(request: try request(undoing: run, installed: installed), installRoot: root)
    }

    /// Where the undo of `run` acts (`nil`: this system): the root the run recorded; `named`
    /// (`--installroot`) only for a run recorded without one, or naming the same root.
    static func root(of run: JobRun, named: String?) throws(UndoRefusal) -> String? {
        let named = named == "/" ? nil : named
        guard let recorded = run.installRoot else { return named }
        let root = recorded == "/" ? nil : recorded
        guard named == nil || named == root else {
            throw UndoRefusal(message: "run \(run.id) acted on \(root.map { "the root \($0)" } ?? "this system"), not on \(named ?? "")")
        }
        return root
    }

    /// The request that undoes `run`, checked against `installed` (the root's rpm database:
    /// every version of each package, by `name.arch`).
    /// - Throws: `UndoRefusal`: an apt run, the run's own reason
    ///   (`JobRun.notUndoableBecause`), or a package changed outside installtop since, saying
    ///   what the rpm database has now.
    static func request(undoing run: JobRun, installed: [String: [String]]) throws(UndoRefusal) -> DNFRequest {
        try checkKind(of: run)
        if let reason = run.notUndoableBecause { throw UndoRefusal(message: "run \(run.id) cannot be undone: \(reason)") }
        var restoring: [String] = []
        var removing: [String] = []
        for package in run.packages where package.changedTheVersion {
            let now = DNFRPMDatabase.versions(of: package.name, in: installed)
            let expected = package.action == .remove || package.action == .purge ? [] : package.newVersion.map { [$0] } ?? []
            guard now == expected else {
                throw UndoRefusal(message: "\(package.name) was changed outside installtop since run \(run.id): the rpm database has "
                    + "\(now.isEmpty ? "none installed" : now.joined(separator: " and ")) now, not as the run left it "
                    + "(\(JobRunTable.versions(of: package)))")
            }
            if package.action == .install {
                // dnf is asked for exactly what the run installed: its name.arch.
                removing += DNFRPMDatabase.keys(of: package.name, in: installed)
                continue
            }
            let kept = run.usableKept(of: package)
            guard let file = kept?.file else {
                throw UndoRefusal(message: "run \(run.id) cannot be undone: no kept version of \(package.name)")
            }
            restoring.append(file)
        }
        guard !restoring.isEmpty || !removing.isEmpty else {
            throw UndoRefusal(message: "run \(run.id) changed nothing an undo could put back")
        }
        return .undo(run: Int(run.id), restoring: restoring, removing: removing)
    }

    /// What to tell the operator after `run`'s undo put back (as `installed` shows) versions
    /// rebuilt with edited `%config` files: rpm now takes the edits for the packages' own, so
    /// the next upgrade replaces those files without an `.rpmnew` or `.rpmsave`.
    static func editWarnings(undoing run: JobRun, installed: [String: [String]]) -> [String] {
        run.kept.compactMap { kept in
            let edited = kept.conffiles.filter { $0.value == HistoryDNFKeeper.edited }.keys.sorted()
            guard !edited.isEmpty, kept.file != nil, DNFRPMDatabase.versions(of: kept.package, in: installed).contains(kept.version) else {
                return nil
            }
            return "\(kept.package) \(kept.version) came back from an rpm rebuilt with \(edited.joined(separator: ", ")) as edited: "
                + "rpm now takes the edit\(edited.count == 1 ? "" : "s") for the package's own, so its next upgrade replaces "
                + "\(edited.count == 1 ? "that file" : "those files") without an .rpmnew or .rpmsave: keep a copy"
        }
    }

    /// The warnings of `editWarnings` for `run`'s undo in `root`, read from its rpm database.
    static func editWarnings(undoing run: JobRun, root: String?) -> [String] {
        guard run.kept.contains(where: { $0.conffiles.values.contains(HistoryDNFKeeper.edited) }),
              let installed = DNFRPMDatabase(root: root).installed(Set(run.kept.map(\.package))) else { return [] }
        return editWarnings(undoing: run, installed: installed)
    }

    private static func checkKind(of run: JobRun) throws(UndoRefusal) {
        guard run.kind == "dnf" else {
            throw UndoRefusal(message: "run \(run.id) is \(run.kind == "apt" ? "an apt run: installtop apt undo \(run.id) undoes it" : "not a dnf run")")
        }
    }
}
