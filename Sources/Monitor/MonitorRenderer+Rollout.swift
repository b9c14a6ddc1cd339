import InstallEngine
import TerminalUI

extension MonitorRenderer {
    /// The rollout's question (`RolloutDialog`): the rule, then each host's line (`[x]` taken,
    /// the cursor's in the selection colour) and its plan, removals in the failure colour,
    /// Essential packages and warnings in the warning colour; the keys last.
    static func drawRolloutDialog(_ dialog: RolloutDialog, into buffer: inout Buffer, state: MonitorState, theme: Theme) {
        let glyphs = state.glyphs
        let rollout = state.rollout
        let (inner, belowHeading) = drawDialogFrame(title: "Upgrade hosts", box: dialog.box, heading: dialog.heading, into: &buffer,
                                                    state: state, theme: theme)
        var y = belowHeading + 1
        let first = min(max(0, rollout?.scroll ?? 0), dialog.maximumScroll)
        for line in dialog.lines.dropFirst(first).prefix(dialog.listHeight) where y < inner.maxY - 1 {
            let rowArea = Rect(x: inner.x, y: y, width: inner.width, height: 1)
            switch line {
            case .host(let index, let text, let included):
                let style = index == rollout?.cursor ? theme[.selection] : theme[.title]
                buffer.fill(rowArea, style: style)
                TextLine((included ? "[x] " : "[ ] ") + text, style: style, ellipsis: glyphs.box.ellipsis).render(into: &buffer, area: rowArea)
            case .note(let text, let warning):
                TextLine("    " + text, style: theme[warning ? .warning : .dim], ellipsis: glyphs.box.ellipsis).render(into: &buffer, area: rowArea)
            case .package(let row):
                let indented = Rect(x: rowArea.x + 4, y: y, width: max(0, rowArea.width - 4), height: 1)
                drawPlanRow(row, into: &buffer, area: indented, wordWidth: 9, state: state, theme: theme)
            }
            y += 1
        }
        var keys = "y starts the [x] hosts  Space toggles  \(glyphs.upDown) host  n declines all"
        if dialog.maximumScroll > 0 { keys += "  PgUp PgDn \(first + 1)-\(first + dialog.listHeight) of \(dialog.lines.count)" }
        TextLine(keys, style: theme[.title], alignment: .center, ellipsis: glyphs.box.ellipsis)
            .render(into: &buffer, area: inner.row(inner.height - 1))
    }
}
