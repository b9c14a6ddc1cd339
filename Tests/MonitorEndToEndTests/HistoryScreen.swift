/// What the tests read off the history view's runs list (Tab in the history view).
///
/// The screen tmux gives may be half-drawn (see `TmuxSession.waitForScreen`): under the runs
/// title, rows of the board or of the updates list can still show. A test that waited for the
/// runs title and a name may see the name there and press `u` while the runs still load (the
/// board's rollout test did, in CI: "no job run to undo", and the question never came). Only
/// a row drawn as a run (its id, kind and whether it can be undone) says the runs are there.
enum HistoryScreen {
    /// The rows of the runs list on `screen`, newest first (the first is the one selected when
    /// the list appears): `2026-11-29 07:25 ✔ succeeded       3 apt      yes  apt upgrade · …`.
    /// Empty while the runs load, and for a frame still showing the updates list.
    static func runRows(in screen: String) -> [String] {
        screen.split(separator: "\n").map(String.init).filter { $0.contains(/\s\d+ [a-z-]+ +(yes|no) {2}/) }
    }
}
