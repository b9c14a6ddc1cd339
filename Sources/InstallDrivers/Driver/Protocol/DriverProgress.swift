/// `{"type":"progress","job":"apt","update":"openssl","percent":40,"message":"Unpacking","jobPercent":31.5}`
public struct DriverProgress: Sendable, Hashable {
    public var reference: DriverUpdateReference
    /// 0–100; `nil` leaves the update's percent as it was (a message alone).
    public var percent: Double?
    /// The update's status text; `nil` leaves it as it was.
    public var message: String?
    /// The driver's own figure for the whole job (apt's overall percent), 0–100; `nil` when it has none.
    public var jobPercent: Double?
}
