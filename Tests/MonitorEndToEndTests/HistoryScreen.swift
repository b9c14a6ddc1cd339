/// What the tests read off the history view's runs list (Tab in the history view).
///
/// A frame is drawn row after row, and tmux may be asked for the screen half-way: the new
/// title above, the rows of the frame before below it. A test that waited for the runs title
/// and a name could see the name in the updates list the view showed before its Tab, and press
/// `u` while the runs were still loading (the board's rollout test did, in CI). Only a row drawn
/// as a run (its id, kind and whether it can be undone) says the runs are there.
enum HistoryScreen {
    /// The rows of the runs list on `screen`, newest first (the first is the one selected when
    /// the list appears): `2026-11-29 07:25 ✔ succeeded       3 apt      yes  apt upgrade · …`.
    /// Empty while the runs load, and for a frame still showing the updates list.
    static func runRows(in screen: String) -> [String] {
        screen.split(separator: "\n").map(String.init).filter { $0.contains(/\s\d+ [a-z-]+ +(yes|no) {2}/) }
    }
}
