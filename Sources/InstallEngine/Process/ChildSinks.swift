/// A sink for each of a child's three pipes (stdout, stderr, file descriptor 3).
public struct ChildSinks: Sendable {
    public var stdout: ChildLineSink
    public var stderr: ChildLineSink
    public var channel: ChildLineSink
    /// Called on the poller's thread once it has handed on every line it read from the child
    /// in one wake-up (all three pipes), and before the child's outcome settles; not called
    /// for a wake-up that read nothing. A reader whose lines come in bursts (apt's Status-Fd
    /// and dpkg's output) hands on what the lines led to here, in one go, instead of per line.
    public var afterReads: (@Sendable () -> Void)?
    /// The least time from the end of one call of `afterReads` to the start of the next: the
    /// lines of wake-ups within it are handed on together, at most this late. Zero calls it
    /// after every wake-up that read.
    ///
    /// Above zero it also paces the reading: a pipe that was read waits this long before it is
    /// watched again, so a child that writes in a trickle (apt and dpkg write a line in several
    /// small writes, a dozen per package) costs one wake-up per interval, not one per write.
    /// A child that gives 16 KiB or more within an interval floods: its pipes are watched
    /// again at once and `afterReads` is called after every wake-up, until a whole interval
    /// gives less. (The start of a flood can fill a pipe and hold its writer up to one
    /// interval, once.) The child's exit is seen at once and its pipes then read without pause.
    public var afterReadsInterval: Duration
    /// Whether the child is read promptly from its start (`ChildProcess.readPromptly(true)` in
    /// force before its first read), until the holder turns it off: a paced child whose first
    /// lines ask for an answer.
    public var promptlyAtFirst: Bool
    /// How many of the lines handed on wait for their consumer (`UpdateReporter.backlog`),
    /// asked after each wake-up that read. From `backlogLimit` on, the child's pipes are not
    /// read until it is down to half that: the child then waits in its `write`, as on a slow
    /// terminal, and what waits in the engine for a flood stays bounded. Its exit is still
    /// seen at once, and its pipes are then drained without pause. `nil`: never held.
    public var consumerBacklog: (@Sendable () -> Int)?

    /// The `consumerBacklog` from which a child is held: a few MiB of a flood's lines.
    public static let backlogLimit = 8_192

    public init(stdout: ChildLineSink, stderr: ChildLineSink, channel: ChildLineSink,
                afterReads: (@Sendable () -> Void)? = nil, atMostEvery afterReadsInterval: Duration = .zero,
                promptlyAtFirst: Bool = false, consumerBacklog: (@Sendable () -> Int)? = nil) {
        self.stdout = stdout
        self.stderr = stderr
        self.channel = channel
        self.afterReads = afterReads
        self.afterReadsInterval = afterReadsInterval
        self.promptlyAtFirst = promptlyAtFirst
        self.consumerBacklog = consumerBacklog
    }

    /// What `ProcessBackend` gives an update: stdout and stderr lines as `.output`, fd 3 as the
    /// progress channel, all to `reporter`.
    public static func update(reporting reporter: any UpdateReporter) -> ChildSinks {
        ChildSinks(stdout: .text { reporter.report(.output(.stdout, $0)) },
                   stderr: .text { reporter.report(.output(.stderr, $0)) },
                   channel: .progressChannel(reporter),
                   consumerBacklog: { reporter.backlog })
    }
}
