/// What a style is for in the monitor: themes map these semantic roles to styles, so the
/// renderer never names a colour.
public enum ThemeRole: Int, CaseIterable, Sendable, Hashable {
    /// Ordinary text, and the background of the whole screen.
    case text
    /// Pane titles.
    case title
    /// Pane borders.
    case border
    /// The border of the pane that has the keyboard focus.
    case focus
    /// Laid over the selected row (`Style.overlaid(by:)`).
    case selection
    /// The top line.
    case header
    /// The key hints at the bottom.
    case footer
    /// Secondary text: elapsed times, placeholders.
    case dim
    /// The transient status line and dialogs' questions.
    case status
    /// The filled part of progress bars.
    case barDone
    /// The unfilled part of progress bars.
    case barTodo
    /// Succeeded updates and jobs.
    case succeeded
    /// Succeeded with errors.
    case warning
    /// Failed updates and jobs.
    case failed
    /// Aborted ones, and jobs being aborted.
    case aborted
    /// Running ones.
    case running
    /// Queued ones.
    case queued
    /// The "reboot required" mark.
    case reboot

    /// The key in theme files (`bar_done`).
    public var key: String {
        switch self {
        case .barDone: return "bar_done"
        case .barTodo: return "bar_todo"
        default: return String(describing: self)
        }
    }

    /// The role named `key` in a theme file, if any.
    public init?(key: String) {
        guard let role = ThemeRole.allCases.first(where: { $0.key == key }) else { return nil }
        self = role
    }
}
