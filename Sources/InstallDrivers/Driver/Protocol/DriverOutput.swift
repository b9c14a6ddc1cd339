import InstallEngine

/// `{"type":"output","job":"apt","update":"openssl","stream":"stdout","line":"Setting up openssl …"}`;
/// without `update` the line belongs to the job as a whole.
public struct DriverOutput: Sendable, Hashable {
    public var job: String
    public var update: String?
    public var stream: StandardStream
    public var line: String

    public init(job: String, update: String?, stream: StandardStream = .stdout, line: String) {
        self.job = job
        self.update = update
        self.stream = stream
        self.line = line
    }
}
