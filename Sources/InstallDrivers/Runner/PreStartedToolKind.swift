import InstallEngine

/// What a kind of tool started before its job (`PreStartedTool`) supplies: how it reads the
/// tool's lines before the plan, and how the tool's end before the plan is said. apt's hook
/// transaction and dnf's helper are the two (`APTHookTransaction`, `DNFHelperTransaction`).
protocol PreStartedToolKind: AnyObject, Sendable {
    /// The translator of the driver that takes the tool over (`LineDriverRunner`), whose
    /// `handOnInterval` paces the tool's reading from its start.
    associatedtype Translator: LineTranslator
    /// What the kind keeps of the tool's lines until the plan, under the tool's lock.
    associatedtype Reading: Sendable
    /// How the tool began: its plan, or its end before the plan.
    associatedtype Beginning: Sendable

    /// The tool this kind reads.
    var tool: PreStartedTool<Self> { get }

    /// One line the tool wrote, on the process poller's thread, in the order of its stream:
    /// the kind hands it to the attached driver (`ToolHandOff.handOn`), keeps it for the driver
    /// that will attach, or reads it itself (the plan, what an end before the plan says).
    func take(_ line: ToolLine)

    /// The tool's process ended and every line of it was read; on the engine's pool. The kind
    /// says the end as the tool's beginning (`PreStartedTool.begin`) unless the plan came first.
    func ended(_ outcome: UpdateRunOutcome)
}
