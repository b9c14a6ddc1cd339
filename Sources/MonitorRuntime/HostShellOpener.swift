/// What the grouped board's `s` runs once curses has given the terminal back: an interactive
/// shell on a host, through the operator's ssh (`RecordedHostShell`; tests give their own).
/// Called on the monitor's thread, which it holds until the session ends: the hosts' links
/// run on their own thread meanwhile, their events waiting in the mailbox.
public protocol HostShellOpener: AnyObject {
    /// Runs `arguments` (`ssh -t … HOST`) on the operator's terminal until it exits and returns
    /// the sentence the board's status line says about it (how it ended, where it is recorded).
    func openShell(on host: String, arguments: [String]) -> String
}
