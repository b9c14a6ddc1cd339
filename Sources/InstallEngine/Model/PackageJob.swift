/// A job run as one apt transaction (PRODUCT.md "Package jobs"): what to ask apt for, and which
/// apt configuration (and so which root) to ask.
public struct PackageJob: Sendable, Hashable {
    public var request: PackageRequest
    /// The file `APT_CONFIG` names for apt and dpkg; `nil` uses installtop's own `APT_CONFIG`,
    /// or the system's configuration when that is unset.
    public var aptConfig: String?

    public init(request: PackageRequest, aptConfig: String? = nil) {
        self.request = request
        self.aptConfig = aptConfig
    }
}
