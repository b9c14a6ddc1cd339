#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TerminalUI

/// The state of the history overlay: its two lists, the updates (one row per update run) and
/// the job runs (Tab switches; `u` undoes the selected run), what the runtime loaded for each
/// (or why there is nothing), the view's own `/` filter and how far each list is scrolled.
public struct HistoryView: Sendable, Hashable {
    /// What the runtime answered to `.loadHistory`.
    public typealias Content = HistoryListContent<HistoryRow>

    /// What the runtime answered to `.loadJobRuns`.
    public typealias RunsContent = HistoryListContent<JobRunRow>

    /// Which list the view shows.
    public enum Mode: Sendable, Hashable {
        case updates
        case runs
    }

    /// The kind of a shell's run (`JobRun.shellKind` in the history).
    static let shellKind = "shell"

    /// How many rows the view asks for: the newest ones.
    public static let rowLimit = 500
    /// Lines the runs list gives up, below the runs, to the selected run's packages or why it
    /// cannot be undone.
    static let runDetailLines = 1

    public internal(set) var mode = Mode.updates
    public internal(set) var content: Content = .loading
    public internal(set) var runs: RunsContent = .loading
    /// On the board: the shells opened on this host from the board, from the operator's own
    /// history (a host's engine does not record them), listed among the host's runs by date;
    /// Enter plays one.
    public internal(set) var shells: [JobRunRow] = []
    /// Whether the runs were asked for (once per opening of the view).
    public internal(set) var runsRequested = false
    /// The view's own `/` filter, shared by both lists; empty shows every row.
    public internal(set) var filter = TextInput()
    /// The first visible row of `visibleRows`.
    public internal(set) var offset = 0
    /// The first visible row of `visibleRuns`.
    public internal(set) var runsOffset = 0
    /// The selected row of `visibleRuns` (what `u` undoes).
    public internal(set) var selectedRun = 0

    /// The board's host whose engine's history this is (its title names it; `u` undoes there);
    /// `nil` for the one engine of a monitor.
    public let host: String?

    public init(host: String? = nil) {
        self.host = host
    }

    /// The filter text; empty shows every row.
    public var filterText: String { filter.text }
    /// True while keys type into the filter.
    public var isEditingFilter: Bool { filter.isEditing }

    /// The loaded rows that match the filter, newest first (empty while loading or unavailable).
    public var visibleRows: [HistoryRow] {
        guard case .rows(let rows) = content else { return [] }
        let text = filterText.lowercased()
        return text.isEmpty ? rows : rows.filter { $0.matches(text) }
    }

    /// All loaded rows, filter or not.
    public var loadedCount: Int {
        if case .rows(let rows) = content { return rows.count }
        return 0
    }

    /// The loaded runs that match the filter, newest first (empty while loading or unavailable).
    public var visibleRuns: [JobRunRow] {
        guard case .rows(let rows) = shownRuns else { return [] }
        let text = filterText.lowercased()
        return text.isEmpty ? rows : rows.filter { $0.matches(text) }
    }

    /// What the runs list shows: the host's runs with the board's shells on it among them by
    /// date, or the shells alone when the host's runs cannot be had (its history is off). A
    /// shell kept on both sides (the board keeps a copy in the host's history) is listed once,
    /// as the board's: Enter plays it from here.
    public var shownRuns: RunsContent {
        guard !shells.isEmpty else { return runs }
        switch runs {
        case .loading: return .loading
        case .unavailable: return .rows(shells)
        case .rows(let loaded):
            let hostsOwn = loaded.filter { run in !shells.contains { Self.sameShell($0, run) } }
            return .rows((hostsOwn + shells).sorted { ($0.date ?? .distantPast) > ($1.date ?? .distantPast) })
        }
    }

    /// Whether `local`, a shell in the board's history, is `remote` of the host's: the same
    /// name and start (to the second: the two histories keep it to the millisecond).
    static func sameShell(_ local: JobRunRow, _ remote: JobRunRow) -> Bool {
        guard remote.kind == shellKind, local.name == remote.name, let a = local.date, let b = remote.date else { return false }
        return abs(a.timeIntervalSince(b)) < 1
    }

    /// The run `u` acts on: the selected one of `visibleRuns`.
    public var selectedRunRow: JobRunRow? {
        let rows = visibleRuns
        return rows.indices.contains(selectedRun) ? rows[selectedRun] : nil
    }

    /// Handles a key with `page` rows visible. While the filter is edited every key goes to it
    /// (`q` and `h` type) and the lists start again from their newest row; otherwise Tab
    /// switches between the updates and the runs (asking for the runs the first time), the
    /// arrows and page keys scroll the updates or move the selected run, `/` edits the filter,
    /// `u` undoes the selected run (or says why it cannot be), Enter on a shell's run plays its
    /// recording, and Esc, `h` or `q` close the view.
    mutating func handle(_ key: Key, page: Int) -> HistoryViewOutcome {
        if filter.isEditing {
            _ = filter.edit(key)
            offset = 0
            runsOffset = 0
            selectedRun = 0
            return .stay
        }
        switch key {
        case .escape, .character("h"), .character("q"): return .close
        case .character("/"): filter.beginEditing()
        case .tab, .backTab:
            mode = mode == .updates ? .runs : .updates
            if mode == .runs, !runsRequested {
                runsRequested = true
                return .loadRuns
            }
        case .character("u"):
            guard mode == .runs else { return .explain("u undoes a job run: Tab shows the runs") }
            guard let run = selectedRunRow else { return .explain("no job run to undo") }
            if let reason = run.notUndoableBecause { return .explain("run \(run.id) cannot be undone: \(reason)") }
            return .undo(run: run.id)
        case .enter where mode == .runs:
            guard let run = selectedRunRow, run.kind == Self.shellKind else {
                return .explain("Enter plays a shell's recording (a run of kind shell); u undoes a run")
            }
            // A shell only the host keeps (opened from another board): its recording is there.
            guard shells.contains(run) || host == nil else {
                return .explain("run \(run.id) is kept on \(host ?? "the host"): installtop replay \(run.id) there plays it")
            }
            return .replay(run: run.id)
        default:
            if mode == .updates { scrollUpdates(key, page: page) } else { moveSelectedRun(key, page: Self.runsPage(page)) }
        }
        clampOffset(page: page)
        return .stay
    }

    private mutating func scrollUpdates(_ key: Key, page: Int) {
        switch key {
        case .up, .character("k"): offset -= 1
        case .down, .character("j"): offset += 1
        case .pageUp: offset -= page
        case .pageDown: offset += page
        case .home: offset = 0
        case .end: offset = Int.max / 2
        default: break
        }
    }

    private mutating func moveSelectedRun(_ key: Key, page: Int) {
        switch key {
        case .up, .character("k"): selectedRun -= 1
        case .down, .character("j"): selectedRun += 1
        case .pageUp: selectedRun -= page
        case .pageDown: selectedRun += page
        case .home: selectedRun = 0
        case .end: selectedRun = Int.max / 2
        default: break
        }
    }

    /// Rows of runs visible when `page` rows of updates are.
    static func runsPage(_ page: Int) -> Int { max(1, page - runDetailLines) }

    /// Keeps `offset` within the rows when `page` rows of updates are visible (the last page is
    /// full), the selected run on a run, and that run on its page.
    mutating func clampOffset(page: Int) {
        offset = min(max(0, offset), max(0, visibleRows.count - max(1, page)))
        let page = Self.runsPage(page)
        let runCount = visibleRuns.count
        selectedRun = min(max(0, selectedRun), max(0, runCount - 1))
        if selectedRun < runsOffset { runsOffset = selectedRun }
        if selectedRun >= runsOffset + page { runsOffset = selectedRun - page + 1 }
        runsOffset = min(max(0, runsOffset), max(0, runCount - page))
    }
}
