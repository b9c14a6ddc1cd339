/// A sink for each of a child's three pipes (stdout, stderr, file descriptor 3).
public struct ChildSinks: Sendable {
    public var stdout: ChildLineSink
    public var stderr: ChildLineSink
    public var channel: ChildLineSink

    public init(stdout: ChildLineSink, stderr: ChildLineSink, channel: ChildLineSink) {
        self.stdout = stdout
        self.stderr = stderr
        self.channel = channel
    }

    /// What `ProcessBackend` gives an update: stdout and stderr lines as `.output`, fd 3 as the
    /// progress channel, all to `reporter`.
    public static func update(reporting reporter: any UpdateReporter) -> ChildSinks {
        ChildSinks(stdout: .text { reporter.report(.output(.stdout, $0)) },
                   stderr: .text { reporter.report(.output(.stderr, $0)) },
                   channel: .progressChannel(reporter))
    }
}
