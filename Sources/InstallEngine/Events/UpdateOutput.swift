/// The payload of `log`: one line of an update's stdout or stderr, or the line that stands for
/// lines a consumer that fell behind did not get (`notShown`).
public struct UpdateOutput: Sendable, Hashable {
    public var job: Int
    public var index: Int
    public var stream: StandardStream
    public var line: String
    /// How many of the update's output lines this line stands for, which a consumer that fell
    /// behind did not get (`SubscriberOutbox`); `nil` for a line the update wrote.
    public var notShown: Int?

    public init(job: Int, index: Int, stream: StandardStream, line: String, notShown: Int? = nil) {
        self.job = job
        self.index = index
        self.stream = stream
        self.line = line
        self.notShown = notShown
    }
}

extension UpdateOutput {
    /// The update this is about.
    public var updateKey: UpdateKey { UpdateKey(job: job, index: index) }

    /// The line on stderr that stands for `count` lines of `update` that `reader` (“this
    /// client”, “the monitor”) did not get because it fell behind.
    public static func linesNotShown(_ update: UpdateKey, count: Int, reader: String) -> UpdateOutput {
        UpdateOutput(
            job: update.job, index: update.index, stream: .stderr,
            line: "installtop: \(count) line\(count == 1 ? "" : "s") of output skipped here: \(reader) fell behind", notShown: count)
    }
}
