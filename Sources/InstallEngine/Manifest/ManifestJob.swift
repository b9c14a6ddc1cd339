/// One job of a manifest: a list of updates to install or uninstall together.
public struct ManifestJob: Sendable, Hashable {
    /// Shown to the operator and passed to children as `INSTALLTOP_JOB`; never empty.
    public var name: String
    /// `install` unless the manifest says `operation: uninstall`.
    public var operation: UpdateOperation
    /// Rule 18: when true, the first failed update ends the job and the rest are aborted.
    public var stopOnFailure: Bool
    /// Never empty for a job of commands; each has the command `operation` needs. An exclusive
    /// update is alone. Empty for a package job, whose updates come from apt's plan.
    public var updates: [Update]
    /// `apt: {…}`: the job is one apt transaction, planned when it is about to be queued.
    public var package: PackageJob?
    /// `ansible: {…}`: not one job but a fleet run, whose hosts become jobs as it runs.
    public var fleet: FleetJob?
    /// 1-based line where the job starts in the manifest, to point back at it in messages.
    public var line: Int

    /// Wraps already-checked values; `ManifestLoader` is the usual way to get jobs.
    public init(name: String, operation: UpdateOperation, stopOnFailure: Bool, updates: [Update], line: Int, package: PackageJob? = nil,
                fleet: FleetJob? = nil) {
        self.name = name
        self.operation = operation
        self.stopOnFailure = stopOnFailure
        self.updates = updates
        self.line = line
        self.package = package
        self.fleet = fleet
    }
}
