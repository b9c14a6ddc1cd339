import TerminalUI

/// A colour scheme for the monitor: one `Style` per `ThemeRole`.
public struct Theme: Sendable, Hashable, Identifiable {
    /// What `--theme` matches: the file's base name (`solarized-dark`).
    public var id: String
    /// The display name from the file's `name:` (its id when the file has none).
    public var name: String
    /// Where it was loaded from.
    public var source: ThemeSource
    /// Indexed by `ThemeRole.rawValue`.
    private var styles: [Style]

    /// A theme where every role not in `styles` takes the `text` style (plain if that is
    /// missing too).
    public init(id: String, name: String, source: ThemeSource, styles: [ThemeRole: Style]) {
        self.id = id
        self.name = name
        self.source = source
        let text = styles[.text] ?? .plain
        self.styles = ThemeRole.allCases.map { styles[$0] ?? text }
    }

    /// The style of `role`.
    public subscript(role: ThemeRole) -> Style {
        styles[role.rawValue]
    }

    /// The same theme without any colour, for `NO_COLOR`: attributes stay, and a style that
    /// had a background colour (a selection, a status bar) becomes reverse video so that it
    /// still stands out.
    public func withoutColors() -> Theme {
        var copy = self
        copy.styles = styles.map { style in
            var plain = style
            plain.reverse = style.reverse || style.background != .default
            plain.foreground = .default
            plain.background = .default
            return plain
        }
        // The screen's background is not a highlight.
        copy.styles[ThemeRole.text.rawValue].reverse = styles[ThemeRole.text.rawValue].reverse
        return copy
    }
}
