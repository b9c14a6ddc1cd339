/// One update of a `DriverPlan`: `{"id":"openssl","title":"openssl 3.0.14 → 3.0.15","size":1450000}`.
public struct DriverPlannedUpdate: Sendable, Hashable {
    /// The driver's key for the update, unique within its job (a package, a task's uuid).
    public var id: String
    /// Shown to the operator; the id when the driver sends none.
    public var title: String
    /// Bytes to fetch, for display; `nil` when unknown.
    public var size: Int64?

    public init(id: String, title: String? = nil, size: Int64? = nil) {
        self.id = id
        self.title = title ?? id
        self.size = size
    }
}
