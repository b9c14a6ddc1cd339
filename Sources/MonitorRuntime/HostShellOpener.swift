import EngineDaemon
import Monitor

/// What the grouped board's `s` runs once curses has given the terminal back: an interactive
/// shell on a host, through the operator's ssh, recorded (`RecordedHostShell`; tests give their
/// own); and the playing back of those recordings from the board's history view. Called on
/// the monitor's thread, which the shell or the playback holds until it ends: the hosts' links
/// run on their own thread meanwhile, their events waiting in the mailbox.
public protocol HostShellOpener: AnyObject, Sendable {
    /// Runs a shell on `host` through `ssh` (`ssh -t … HOST`, `SSHCommand.shellArguments`) on
    /// the operator's terminal until it exits and returns the sentence the board's status line
    /// says about it (how it ended, where it is recorded).
    func openShell(on host: String, through ssh: SSHCommand) -> String

    /// Plays the recording of shell run `run` on the operator's terminal until it ends or a key
    /// stops it, and returns the sentence the status line says (what was played, or why not).
    func replay(run: Int) -> String

    /// Reads the newest `limit` shells opened on `host` from the board and posts them as
    /// `.shellRunsLoaded` (none when there is no history); returns at once, the disk read
    /// elsewhere.
    func loadShellRuns(onHost host: String, limit: Int, posting mailbox: Mailbox)
}
