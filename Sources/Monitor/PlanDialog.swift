import InstallEngine
import TerminalUI
import FoundationEssentials

/// The question asked before a job that awaits confirmation (an apt plan) starts, laid out for
/// the monitor's body: the question with the plan's counts, wrapped and never cut; a line naming
/// the Essential packages it upgrades or removes; then the plan, one package a row, removals
/// first, scrolled by `scroll` rows when it does not fit. The renderer draws it and the keys
/// scroll it, from the same layout.
struct PlanDialog {
    /// One package of the plan.
    struct Row: Hashable {
        var action: PackageChange.Action?
        /// `perl-base 5.36.0-7 → 5.36.0-7+deb12u2`, `systemd-timesyncd 252.30`.
        var text: String
        var essential: Bool
        /// An upgrade to an older version (an undo's): said "downgrade".
        var downgrade = false

        /// The row's word: the action's, `downgrade` for a version going back.
        var word: String { downgrade ? "downgrade" : action?.rawValue ?? "" }
    }

    /// The widest the box gets.
    static let maximumWidth = 76

    let box: Rect
    /// The question, wrapped to the box.
    let heading: [String]
    /// The Essential warning, wrapped; empty when the plan touches no Essential package.
    let warning: [String]
    let rows: [Row]
    /// Rows of the plan shown at once.
    let listHeight: Int
    /// Blank rows between the warning and the plan (1 when there is room).
    let gap: Int

    /// The dialog for a job named `name` with `updates`, in `area`.
    init(name: String, updates: [Update], area: Rect, sanitizer: TextSanitizer) {
        let width = min(Self.maximumWidth, area.width)
        let innerWidth = max(1, width - 2)
        heading = Self.wrap("Start " + sanitizer.sanitize(name) + "?", width: innerWidth)
        let changes = updates.compactMap(\.package)
        warning = PackageChange.essentialWarning(changes).map { Self.wrap(sanitizer.sanitize($0), width: innerWidth) } ?? []
        // The most consequential first: what goes away, then what changes version.
        let order: [PackageChange.Action?] = [.remove, .purge, .upgrade, .reinstall, .install, nil]
        rows = updates.map { update in
            guard let change = update.package else { return Row(action: nil, text: sanitizer.sanitize(update.title), essential: false) }
            return Row(action: change.action, text: sanitizer.sanitize(Self.text(of: change)), essential: change.essential,
                       downgrade: change.isDowngrade)
        }.enumerated().sorted { left, right in
            let leftRank = order.firstIndex(of: left.element.action) ?? order.count
            let rightRank = order.firstIndex(of: right.element.action) ?? order.count
            return leftRank != rightRank ? leftRank < rightRank : left.offset < right.offset
        }.map(\.element)
        // Border, heading, warning and the keys' line; a blank line before the plan when the
        // whole plan fits with it.
        let fixed = 2 + heading.count + warning.count + 1
        gap = area.height - fixed - 1 >= rows.count && !rows.isEmpty ? 1 : 0
        let available = max(1, area.height - fixed - gap)
        listHeight = min(rows.count, available)
        let height = min(area.height, fixed + gap + max(1, listHeight))
        box = Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
    }

    /// The dialog for job `job` named `name` on the monitor in `state`.
    init(job: Int, name: String, state: MonitorState) {
        let descriptor = state.queue.job(job)?.descriptor
        self.init(name: name, updates: descriptor?.updates ?? [], area: state.layout.body,
                  sanitizer: state.glyphs.sanitizer)
    }

    /// The furthest the plan scrolls: its last row at the bottom.
    var maximumScroll: Int { max(0, rows.count - listHeight) }

    /// Where `scroll` goes after `key`; `nil` when the key does not scroll the plan.
    func scroll(_ scroll: Int, after key: Key) -> Int? {
        DialogScroll.scroll(scroll, after: key, page: listHeight, maximum: maximumScroll)
    }

    /// A package and its versions, without the action the row's word says.
    static func text(of change: PackageChange) -> String {
        switch change.action {
        case .upgrade: return change.title
        case .install: return [change.package, change.newVersion].compactMap { $0 }.joined(separator: " ")
        case .reinstall: return [change.package, change.newVersion ?? change.oldVersion].compactMap { $0 }.joined(separator: " ")
        case .remove, .purge: return [change.package, change.oldVersion].compactMap { $0 }.joined(separator: " ")
        }
    }

    /// `text` in lines of at most `width` columns, broken between its ` · `-separated phrases
    /// and after commas where it can (`288.7 kB to download` stays whole), else between words;
    /// a word wider than a line is broken where it must be.
    static func wrap(_ text: String, width: Int) -> [String] {
        var phrases: [String] = []
        for (index, part) in text.components(separatedBy: " · ").enumerated() {
            let pieces = part.components(separatedBy: ", ")
            for (offset, piece) in pieces.enumerated() {
                var phrase = (index > 0 && offset == 0 ? "· " : "") + piece
                if offset < pieces.count - 1 { phrase += "," }
                phrases.append(phrase)
            }
        }
        return TextWrapping.wrap(phrases, width: width)
    }
}
