import InstallEngine

/// How a kind of tool started before its job (`PreStartedTool`) reads the tool's lines before
/// the plan, and how the tool's end before the plan is said.
protocol PreStartedToolLines: PreStartedToolKind {
    /// The translator of the driver that takes the tool over (`LineDriverRunner`), whose
    /// `handOnInterval` paces the tool's reading from its start.
    associatedtype Translator: LineTranslator

    /// One line `tool` wrote, on the process poller's thread, in the order of its stream: the
    /// kind hands it to the attached driver (`ToolHandOff.handOn`), keeps it for the driver that
    /// will attach, or reads it itself (the plan, what an end before the plan says).
    func take(_ line: ToolLine, of tool: PreStartedTool<Self>)

    /// `tool`'s process ended and every line of it was read; on the engine's pool. The kind says
    /// the end as the tool's beginning (`PreStartedTool.begin`) unless the plan came first.
    func ended(_ outcome: UpdateRunOutcome, of tool: PreStartedTool<Self>)
}
