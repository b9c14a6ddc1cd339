/// The panes that can have the keyboard focus, in Tab order.
public enum MonitorPane: Int, CaseIterable, Sendable, Hashable {
    /// The list of jobs.
    case jobs
    /// The updates of the selected job.
    case updates
    /// The output tail of the selected update.
    case output

    /// The pane after this one (Tab), wrapping around.
    public var next: MonitorPane { MonitorPane(rawValue: (rawValue + 1) % 3)! }
    /// The pane before this one (Shift-Tab), wrapping around.
    public var previous: MonitorPane { MonitorPane(rawValue: (rawValue + 2) % 3)! }
}
