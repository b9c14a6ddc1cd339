/// Where a job of the grouped board (`installtop attach --host …`) lives: its host and the
/// number that host's engine gave it. The board numbers jobs of its own, since two hosts'
/// engines both have a job 1; commands go back to `host` with `job`.
public struct JobOrigin: Sendable, Hashable {
    /// The host's name as the operator wrote it.
    public var host: String
    /// The job's number on that host's engine.
    public var job: Int

    public init(host: String, job: Int) {
        self.host = host
        self.job = job
    }
}
