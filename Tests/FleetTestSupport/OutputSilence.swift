import Glibc

/// Tells a run that reports as it goes (an ansible play's task lines, installtop's events) from
/// a hung one: by how long the files its output goes to have not grown, not by how long it has
/// run. A loaded machine slows such a run many times over while it still makes progress.
public struct OutputSilence {
    private let paths: [String]
    private let limit: Duration?
    private var size = -1
    private var lastGrowth = ContinuousClock.now

    /// - Parameter limit: how long the files may stay the same size; `nil`: never silent.
    public init(watching paths: [String], limit: Duration?) {
        self.paths = paths
        self.limit = limit
    }

    /// Looks at the files' sizes once: whether they have not grown for `limit` (a file that is
    /// not there counts as empty).
    public mutating func isSilent(now: ContinuousClock.Instant = .now) -> Bool {
        guard let limit else { return false }
        let current = paths.reduce(0) { total, path in
            var status = stat()
            return total + (stat(path, &status) == 0 ? Int(status.st_size) : 0)
        }
        if current != size {
            size = current
            lastGrowth = now
            return false
        }
        return now - lastGrowth > limit
    }
}
