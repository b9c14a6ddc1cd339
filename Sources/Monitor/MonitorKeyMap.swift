import TerminalUI

/// The monitor's keys in its main view, declared once: dispatch (`MonitorState.handleKey`), the
/// help overlay and the footer all read this list, so a key cannot be added to one and
/// forgotten in another. Overlays and the filter editor have keys of their own.
public enum MonitorKeyMap {
    /// The bindings, in the order the help lists them; `attached` swaps quitting for detaching.
    /// `upDown` is how the footer writes the arrows (`↑↓`, or `Up/Dn` without UTF-8).
    /// `board` adds the grouped board's keys (`installtop attach --host …`).
    public static func bindings(attached: Bool, board: Bool = false, upDown: String = "↑↓") -> [KeyBinding] {
        var bindings = [
            KeyBinding([.up, .down, .character("k"), .character("j")], .navigate, help: "↑ ↓  k j",
                       "select (scroll in the output pane)", footer: "\(upDown) select"),
            KeyBinding([.tab], .nextPane, help: "Tab  Shift-Tab", "switch pane", footer: "Tab pane"),
            KeyBinding([.backTab], .previousPane, help: nil, "switch pane back"),
            KeyBinding([.pageUp, .pageDown, .home, .end], .navigate, help: "PgUp PgDn Home End", "move by a page, to the first or last"),
            KeyBinding([.character("f")], .followWork, help: "f",
                       "follow the running job again (after moving by hand)"),
            KeyBinding([.enter], .openFullOutput, help: "Enter",
                       "jobs pane: the job's detail; else the update's output"),
            KeyBinding([.character("a")], .abortSelectedJob, help: "a", "abort the selected job (asks); again: force it", footer: "a abort"),
            KeyBinding([.character("A")], .abortAllJobs, help: "A", "abort every job (asks); again: force"),
            KeyBinding([.character("c")], .cleanUpSelectedJob, help: "c", "clean up the selected job (waits for it to complete)",
                       footer: "c clean up"),
            KeyBinding([.character("C")], .cleanUpCompletedJobs, help: "C", "clean up every completed job"),
            KeyBinding([.character("r")], .retrySelectedJob, help: "r", "re-queue a completed job's failed and aborted updates"),
            KeyBinding([.character("R")], .restartServices, help: "R",
                       "restart the services that run replaced code (asks)"),
            KeyBinding([.character("/")], .editFilter, help: "/", "filter jobs and updates (Enter keeps, Esc clears)", footer: "/ filter"),
            KeyBinding([.escape], .clearFilter, help: nil, "clear the filter"),
            KeyBinding([.character("t")], .nextTheme, help: "t", "next theme", footer: "t theme"),
            KeyBinding([.character("h")], .openHistory, help: "h", "install history (/ filters, Tab job runs, u undoes)",
                       footer: "h history", footerIfRoom: true),
            KeyBinding([.character("?")], .openHelp, help: "?", "this help", footer: "? help"),
        ]
        // Runs are armed only in an engine (attached) or on the board's hosts.
        if attached || board {
            bindings.append(KeyBinding([.character("K")], .keepArmedRun, help: "K",
                                       "keep (confirm) the armed run that waits for it: else it is undone at its deadline"))
        }
        if board {
            bindings.insert(KeyBinding([.right, .left, .character(" ")], .toggleHost, help: "→ ← Space",
                                       "show or fold the selected host's jobs (its row shows its current job)", footer: "→ jobs"), at: 1)
            bindings += RolloutKeys.bindings
            bindings += MonitorKeyMap.boardFleetBindings
        }
        if attached {
            bindings.append(KeyBinding([.character("q"), .character("d")], .detach, help: "q  d",
                                       "detach: the jobs keep running in the engine", footer: "d detach"))
        } else {
            bindings.append(KeyBinding([.character("q")], .quit, help: "q", "quit (asks while jobs run: they would be aborted)",
                                       footer: "q quit"))
            bindings.append(KeyBinding([.character("d")], .detach, help: nil, "say that d detaches an attached monitor"))
        }
        return bindings
    }

    /// The binding of `key`, if it has one.
    public static func binding(for key: Key, attached: Bool, board: Bool = false) -> KeyBinding? {
        bindings(attached: attached, board: board).first { $0.keys.contains(key) }
    }

    /// The footer's key hints, two spaces apart, within `width` columns when the optional ones
    /// would not fit.
    static func footer(attached: Bool, board: Bool = false, upDown: String, width: Int) -> String {
        let hints = bindings(attached: attached, board: board, upDown: upDown).filter { $0.footer != nil }
        let all = " " + hints.compactMap(\.footer).joined(separator: "  ")
        guard DisplayWidth.of(all) > width else { return all }
        return " " + hints.filter { !$0.footerIfRoom }.compactMap(\.footer).joined(separator: "  ")
    }
}
