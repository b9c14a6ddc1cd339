/// A loaded and checked manifest: the jobs to run, in the file's order.
///
/// Every `Update` is complete: defaults, job settings and the update's own keys are already
/// merged, and its working directory is absolute.
public struct Manifest: Sendable, Hashable {
    /// The path the manifest was loaded from, as given to the loader.
    public var path: String
    /// Never empty.
    public var jobs: [ManifestJob]
    /// What may go wrong when it runs but need not (a program not on `PATH` today), positioned
    /// like errors, each message starting with `warning:`.
    public var warnings: [ManifestError]

    /// Wraps already-checked jobs; `ManifestLoader` is the usual way to get a manifest.
    public init(path: String, jobs: [ManifestJob], warnings: [ManifestError] = []) {
        self.path = path
        self.jobs = jobs
        self.warnings = warnings
    }

    /// How many updates all jobs hold together.
    public var updateCount: Int { jobs.reduce(0) { $0 + $1.updates.count } }

    /// `FILE: OK — 3 jobs, 8 updates` (singular for one), what `installtop validate` prints.
    /// A manifest with jobs of kinds, whose updates are known only when they run, says what
    /// they are: `FILE: OK — 2 jobs: 3 updates, an apt transaction (planned when it runs)`.
    public var validationSummary: String {
        let jobCount = jobs.count == 1 ? "1 job" : "\(jobs.count) jobs"
        let updates = updateCount == 1 ? "1 update" : "\(updateCount) updates"
        let kinded = jobs.compactMap(\.kind)
        guard !kinded.isEmpty else { return "\(path): OK — \(jobCount), \(updates)" }
        var parts: [String] = []
        if kinded.count < jobs.count { parts.append(updates) }
        var seen: [String] = []
        for spec in kinded where !seen.contains(spec.key) {
            seen.append(spec.key)
            parts.append(spec.kind.validationPhrase(count: kinded.count { $0.key == spec.key }))
        }
        return "\(path): OK — \(jobCount): \(parts.joined(separator: ", "))"
    }
}
