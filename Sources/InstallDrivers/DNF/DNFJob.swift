/// A job run as one dnf transaction (Documentation/DNF-JOBS.md): what to ask dnf for, and in
/// which root.
public struct DNFJob: Sendable, Hashable {
    public var request: DNFRequest
    /// The root dnf acts on (`--installroot`): its configuration, repositories, rpm database,
    /// caches and logs are all read and written inside it. `nil` acts on this system.
    public var installRoot: String?
    /// `$releasever` for the root's repositories (`--releasever`); `nil` lets dnf find it.
    public var releaseVersion: String?

    public init(request: DNFRequest, installRoot: String? = nil, releaseVersion: String? = nil) {
        self.request = request
        self.installRoot = installRoot
        self.releaseVersion = releaseVersion
    }
}
