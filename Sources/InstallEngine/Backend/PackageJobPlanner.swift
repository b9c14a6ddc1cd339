/// Turns a package job into what the queue runs: the updates apt plans and the driver that runs
/// them. Given to the daemon by the executable, so the engine's server needs no apt of its own.
public protocol PackageJobPlanner: Sendable {
    /// The plan of `job`: its updates (empty when apt has nothing to do) and its driver.
    /// - Throws: apt's refusal (unknown package, locked database, no permission), in apt's words.
    func plan(_ job: PackageJob) throws -> PlannedPackageJob
}

/// A package job as apt planned it.
public struct PlannedPackageJob: Sendable {
    public var updates: [Update]
    public var driver: any JobDriver
    /// How the plan reads: `3 to install · 1.9 kB to download`.
    public var summary: String

    public init(updates: [Update], driver: any JobDriver, summary: String) {
        self.updates = updates
        self.driver = driver
        self.summary = summary
    }
}
