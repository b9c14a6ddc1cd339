/// One job of a manifest: a list of updates to install or uninstall together.
public struct ManifestJob: Sendable, Hashable {
    /// Shown to the operator and passed to children as `INSTALLTOP_JOB`; never empty.
    public var name: String
    /// `install` unless the manifest says `operation: uninstall`.
    public var operation: UpdateOperation
    /// Rule 18: when true, the first failed update ends the job and the rest are aborted.
    public var stopOnFailure: Bool
    /// Never empty for a job of commands; each has the command `operation` needs. An exclusive
    /// update is alone. Empty for a job of a kind, whose updates come from its plan.
    public var updates: [Update]
    /// `nil` for a job of commands; otherwise the kind and what its section (`apt: {…}`) asks,
    /// planned when the job is about to be queued.
    public var kind: JobKindSpec?
    /// 1-based line where the job starts in the manifest, to point back at it in messages.
    public var line: Int

    /// Wraps already-checked values; `ManifestLoader` is the usual way to get jobs.
    public init(name: String, operation: UpdateOperation, stopOnFailure: Bool, updates: [Update], line: Int, kind: JobKindSpec? = nil) {
        self.name = name
        self.operation = operation
        self.stopOnFailure = stopOnFailure
        self.updates = updates
        self.line = line
        self.kind = kind
    }
}
