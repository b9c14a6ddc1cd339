import InstallEngine

/// Whether a job run can be undone now, and if not why (Documentation/UNDO.md, rule 34), in the
/// words `history --jobs` gives and an undo's refusal will: the first reason that applies.
enum JobRunUndoability {
    /// Why `run` cannot be undone; `nil` when it can.
    /// - Parameters:
    ///   - laterChange: the id of the earliest later run, not undone, that changed the package
    ///     named again (it must be undone first); `nil` when none did.
    ///   - halfWay: the packages dpkg has half-way now in the run's database; a run naming one
    ///     is not undoable until it is finished (apt refuses to plan while dpkg's journal is
    ///     open, and a package another run left half-way is not as this run left it), except a
    ///     package whose update failed in this run and that dpkg has at its new version, not
    ///     needing its archive (a failed postinst: half-configured): the undo puts it back.
    ///   - newestNaming: the newest run naming a package, whose repair finishes it.
    ///   - laterCannotBeUndone: why a later run can never be undone (an observed one with no
    ///     versions kept), `nil` when it may be: "undo run N first" is said only of a run that
    ///     can be.
    ///   - fileExists: whether a kept file is still there.
    static func reason(for run: JobRun, laterChange: (String) -> Int64?, halfWay: [String: HalfWayPackage] = [:],
                       newestNaming: (String) -> Int64 = { _ in 0 }, laterCannotBeUndone: (Int64) -> String? = { _ in nil },
                       fileExists: (String) -> Bool) -> String? {
        /// The way a later change of `name` by run `later` stands: undone first, or never.
        func changedAgain(_ name: String, by later: Int64) -> String {
            guard let why = laterCannotBeUndone(later) else { return "run \(later) changed \(name) again: undo run \(later) first" }
            return "run \(later) changed \(name) again and cannot itself be undone (\(why)): installtop cannot put \(name) back for this run"
        }
        if run.kind == JobRun.shellKind { return "a shell on a host changes nothing installtop can put back: installtop replay \(run.id) plays it" }
        if let undoneBy = run.undoneBy { return "undone already by run \(undoneBy)" }
        guard run.resultCode != nil else { return "still running (or its process died before it ended)" }
        guard run.isPackageJob else { return "not a package job" }
        // A failed update that dpkg has as the run left it: the undo puts it back.
        let failedLeft = run.packages.filter { package in
            guard !package.changedThePackage, package.action == .install || package.action == .upgrade,
                  let state = halfWay[package.name], !state.needsRepair else { return false }
            return package.action == .install || state.version == package.newVersion
        }
        if let left = run.packages.first(where: { halfWay[$0.name] != nil && !failedLeft.contains($0) }), let state = halfWay[left.name] {
            return "dpkg has \(left.name) \(state.words): installtop apt repair \(newestNaming(left.name)) finishes it first"
        }
        let changed = run.packages.filter(\.changedTheVersion)
        for package in failedLeft {
            if let later = laterChange(package.name) { return changedAgain(package.name, by: later) }
        }
        guard !changed.isEmpty || !failedLeft.isEmpty else {
            return run.packages.contains(where: \.changedThePackage) ? "it only reinstalled packages: there is no other version to put back"
                : "it changed no package"
        }
        if run.observed && !run.keptForUndo { return "observed, not run by installtop: no versions were kept for it" }
        // Only failed upgrades with nothing kept: the undo would put nothing back.
        if changed.isEmpty, let first = failedLeft.first,
           !failedLeft.contains(where: { $0.action == .install || run.usableKept(of: $0) != nil }) {
            return "no version of \(first.name)\(first.oldVersion.map { " \($0)" } ?? "") was kept for this run"
        }
        for package in changed {
            if let later = laterChange(package.name) {
                return changedAgain(package.name, by: later)
            }
        }
        for package in changed where package.action != .install {
            let kept = run.kept.filter { $0.package == package.name && $0.version == package.oldVersion }
            if let file = run.usableKept(of: package)?.file {
                if fileExists(file) { continue }
                return "the kept file of \(package.name) \(package.oldVersion ?? "?") is missing: \(file)"
            }
            if let pruned = kept.first(where: { $0.prunedAt != nil }) {
                return "the kept version of \(package.name) \(pruned.version) was pruned"
            }
            if let failure = kept.first(where: { $0.failure != nil })?.failure {
                return "\(package.name) \(package.oldVersion ?? "?") was not kept: \(failure)"
            }
            // Not said to be keeping that was off: a retry's run, among others, keeps none with it on.
            return "no version of \(package.name)\(package.oldVersion.map { " \($0)" } ?? "") was kept for this run"
        }
        return nil
    }
}
