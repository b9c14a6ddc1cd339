import InstallEngine

/// Which jobs and updates match the `/` filter text, kept up to date as jobs come and go so a
/// frame never searches every title. A job matches when its name or any update title contains
/// the text (ignoring case); a job whose name matches shows all its updates, otherwise only
/// the matching ones.
struct JobFilter: Sendable, Hashable {
    /// Lower-cased filter text; empty means no filter.
    private(set) var needle = ""
    /// For each matching job, the positions of its visible updates.
    private var matches: [Int: [Int]] = [:]

    var isActive: Bool { !needle.isEmpty }

    /// Sets the text and recomputes every job.
    mutating func set(_ text: String, jobs: [JobState]) {
        needle = text.lowercased()
        matches = [:]
        guard isActive else { return }
        for job in jobs { add(job) }
    }

    /// Takes a new job into account.
    mutating func add(_ job: JobState) {
        guard isActive else { return }
        if job.descriptor.name.lowercased().contains(needle) {
            matches[job.id] = Array(job.updates.indices)
            return
        }
        let indices = job.updates.indices.filter { job.updates[$0].update.title.lowercased().contains(needle) }
        if !indices.isEmpty { matches[job.id] = indices }
    }

    /// Forgets a job that left the queue.
    mutating func remove(job id: Int) {
        matches[id] = nil
    }

    /// Whether job `id` is shown.
    func shows(job id: Int) -> Bool {
        !isActive || matches[id] != nil
    }

    /// The positions of the updates shown for `job`.
    func visibleUpdates(of job: JobState) -> VisibleIndices {
        isActive ? .subset(matches[job.id] ?? []) : .all(job.updates.count)
    }
}
