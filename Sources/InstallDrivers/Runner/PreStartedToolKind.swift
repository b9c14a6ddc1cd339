/// What differs between the tools started before their job (`PreStartedTool`), as their owners
/// see it: what the kind keeps of the tool's lines until the plan, how the tool began, and what
/// a stop does before the tool's SIGINT. How the lines are read is `PreStartedToolLines`, within
/// the drivers. apt's transaction with its plan hook and dnf's helper are the two
/// (`APTHookToolKind`, `DNFHelperToolKind`).
public protocol PreStartedToolKind: Sendable {
    /// What the kind keeps of the tool's lines until the plan, under the tool's lock.
    associatedtype Reading: Sendable
    /// How the tool began: its plan, or its end before the plan.
    associatedtype Beginning: Sendable

    /// The tool is asked to stop (`PreStartedTool.stop`), just before its SIGINT: apt's asks
    /// its archive gate first. Nothing by default.
    func stopping()
}

extension PreStartedToolKind {
    public func stopping() {}
}
