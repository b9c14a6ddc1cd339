import InstallEngine
import TerminalUI
import RestartScan

/// The question `R` asks (rule 32), laid out for the monitor's body: the question, wrapped;
/// then one row per service to restart, per service left out and per process no service owns,
/// scrolled by `scroll` rows when they do not fit. The renderer draws it and the keys scroll
/// it, from the same layout.
struct RestartDialog {
    /// One row of the list.
    struct Row: Hashable {
        enum Kind: Hashable {
            /// Restarted by the job.
            case restart
            /// A service not restarted blindly.
            case leftOut
            /// A process of no service: listed, never killed.
            case bare
        }

        var kind: Kind
        var text: String

        /// The word before the text, at most `wordWidth` columns.
        var word: String {
            switch kind {
            case .restart: "restart"
            case .leftOut: "left out"
            case .bare: "no service"
            }
        }
    }

    /// Columns of the row's word.
    static let wordWidth = 10

    let box: Rect
    /// The question and what the left-out rows mean, wrapped to the box.
    let heading: [String]
    let rows: [Row]
    /// How many services the job restarts.
    let count: Int
    /// Rows of the list shown at once.
    let listHeight: Int

    /// The dialog for `plan` in `area`.
    init(plan: ServiceRestartPlan, area: Rect, sanitizer: TextSanitizer) {
        let width = min(PlanDialog.maximumWidth, area.width)
        let innerWidth = max(1, width - 2)
        count = plan.restart.count
        let how = plan.restart.contains(where: RestartJobPlan.isInitScript) ? "systemctl restart, or its init script" : "systemctl restart"
        let on = plan.host.map { " on \(sanitizer.sanitize($0))" } ?? ""
        var question = "Restart \(count) \(count == 1 ? "service" : "services")\(on) (\(how))?"
        if !plan.leftOut.isEmpty { question += " · left out: not restarted blindly" }
        if !plan.bare.isEmpty { question += " · no service: listed, never killed" }
        heading = PlanDialog.wrap(question, width: innerWidth)
        rows = plan.restart.map { Row(kind: .restart, text: sanitizer.sanitize($0)) }
            + plan.leftOut.map { Row(kind: .leftOut, text: sanitizer.sanitize($0)) }
            + plan.bare.map { Row(kind: .bare, text: "\($0.pid) \(sanitizer.sanitize($0.command)) (\(sanitizer.sanitize($0.user)))") }
        // Border, heading and the keys' line.
        let fixed = 2 + heading.count + 1
        listHeight = min(rows.count, max(1, area.height - fixed))
        let height = min(area.height, fixed + max(1, listHeight))
        box = Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
    }

    /// The dialog for `plan` on the monitor in `state`.
    init(plan: ServiceRestartPlan, state: MonitorState) {
        self.init(plan: plan, area: state.layout.body, sanitizer: state.glyphs.sanitizer)
    }

    /// The furthest the list scrolls: its last row at the bottom.
    var maximumScroll: Int { max(0, rows.count - listHeight) }

    /// Where `scroll` goes after `key`; `nil` when the key does not scroll the list.
    func scroll(_ scroll: Int, after key: Key) -> Int? {
        DialogScroll.scroll(scroll, after: key, page: listHeight, maximum: maximumScroll)
    }
}
