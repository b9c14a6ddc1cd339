/// The payload of `log`: one line of an update's stdout or stderr.
public struct UpdateOutput: Sendable, Hashable {
    public var job: Int
    public var index: Int
    public var stream: StandardStream
    public var line: String

    public init(job: Int, index: Int, stream: StandardStream, line: String) {
        self.job = job
        self.index = index
        self.stream = stream
        self.line = line
    }
}

extension UpdateOutput {
    /// The update this is about.
    public var updateKey: UpdateKey { UpdateKey(job: job, index: index) }
}
