/// One captured line of an update's output.
public struct OutputLine: Sendable, Hashable {
    public var stream: StandardStream
    public var text: String

    public init(stream: StandardStream, text: String) {
        self.stream = stream
        self.text = text
    }
}
