/// Which update of which declared job a message is about: `"job":"web1","update":"t3"`.
public struct DriverUpdateReference: Sendable, Hashable {
    public var job: String
    public var update: String

    public init(job: String, update: String) {
        self.job = job
        self.update = update
    }
}
