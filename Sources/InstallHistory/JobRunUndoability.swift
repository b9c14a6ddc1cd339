import InstallEngine

/// Whether a job run can be undone now, and if not why (Documentation/UNDO.md, rule 34), in the
/// words `history --jobs` gives and an undo's refusal will: the first reason that applies.
enum JobRunUndoability {
    /// Why `run` cannot be undone; `nil` when it can.
    /// - Parameters:
    ///   - laterChange: the id of the earliest later run, not undone, that changed the package
    ///     named again (it must be undone first); `nil` when none did.
    ///   - fileExists: whether a kept file is still there.
    static func reason(for run: JobRun, laterChange: (String) -> Int64?, fileExists: (String) -> Bool) -> String? {
        if run.kind == JobRun.shellKind { return "a shell on a host changes nothing installtop can put back: installtop replay \(run.id) plays it" }
        if let undoneBy = run.undoneBy { return "undone already by run \(undoneBy)" }
        guard run.resultCode != nil else { return "still running (or its process died before it ended)" }
        guard run.isPackageJob else { return "not a package job" }
        let changed = run.packages.filter(\.changedTheVersion)
        guard !changed.isEmpty else {
            return run.packages.contains(where: \.changedThePackage) ? "it only reinstalled packages: there is no other version to put back"
                : "it changed no package"
        }
        if run.observed && !run.keptForUndo { return "observed, not run by installtop: no versions were kept for it" }
        for package in changed {
            if let later = laterChange(package.name) {
                return "run \(later) changed \(package.name) again: undo run \(later) first"
            }
        }
        for package in changed where package.action != .install {
            let kept = run.kept.filter { $0.package == package.name && $0.version == package.oldVersion }
            if let usable = kept.first(where: { $0.file != nil && $0.prunedAt == nil }), let file = usable.file {
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
