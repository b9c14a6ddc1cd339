import InstallEngine

/// A job run as one apt transaction (Documentation/APT-JOBS.md): what to ask apt for, and which
/// apt (this system's or a chroot's) and configuration (and so which root) to ask.
public struct PackageJob: Sendable, Hashable {
    public var request: PackageRequest
    /// The file `APT_CONFIG` names for apt and dpkg; `nil` uses installtop's own `APT_CONFIG`,
    /// or the system's configuration when that is unset.
    public var aptConfig: String?
    /// The folder apt runs in through `chroot` (an image or a container's root); `nil` runs
    /// this system's apt. `aptConfig` is then read inside it.
    public var chroot: String?
    /// Arms the job's run (commit-confirmed); `nil` for a job that is kept as it ends.
    public var confirm: ConfirmRequest?

    public init(request: PackageRequest, aptConfig: String? = nil, chroot: String? = nil, confirm: ConfirmRequest? = nil) {
        self.request = request
        self.aptConfig = aptConfig
        self.chroot = chroot
        self.confirm = confirm
    }
}
