#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineWire
import InstallEngine
import TerminalUI

/// Everything that can change the monitor's state; the runtime feeds them to
/// `MonitorState.handle(_:)`.
public enum MonitorEvent: Sendable, Hashable {
    /// Something happened in the engine.
    case engine(EngineEvent)
    /// Several engine events at once, in order (a snapshot, a drained mailbox): the same as
    /// `.engine` for each, with the selection and scrolling fixed up once at the end.
    case engineEvents([EngineEvent])
    /// A key press.
    case key(Key)
    /// Time passed: animations advance, elapsed times and ETAs are recomputed, status messages
    /// expire. The runtime sends them only while `MonitorState.nextTickTime` is not `nil`.
    case tick(Date)
    /// The terminal now has this many columns and rows.
    case resize(width: Int, height: Int)
    /// SIGINT, SIGTERM or SIGHUP arrived.
    case signal(TerminationSignal)
    /// The engine refused a command (abort, clean-up, retry) or the runtime has something to
    /// say: the text is shown in the status line.
    case commandResult(String)
    /// The terminal is back from a shell on a host or a recording played (the board's `s`, or
    /// Enter on a shell's run): the text says how it ended, and stays until the next key
    /// (`StatusMessage.staysUntilKey`).
    case returnedFromShell(String)
    /// The median seconds past successful runs of each update took, by update id, for ETAs; sent
    /// once at start when history is on. Replaces what was known before.
    case historicalDurations([String: TimeInterval])
    /// The answer to `.loadHistory`: rows newest first.
    case historyLoaded([HistoryRow])
    /// The answer to `.loadHistory` when there is no history to show; the text says why.
    case historyUnavailable(String)
    /// The answer to `.loadJobRuns`: runs newest first.
    case jobRunsLoaded([JobRunRow])
    /// The answer to `.loadJobRuns` when there are no runs to show; the text says why.
    case jobRunsUnavailable(String)
    /// The board's shells on a host (`.loadShellRuns`), newest first: listed among that host's
    /// runs in its history view.
    case shellRunsLoaded(host: String, [JobRunRow])
    /// The link connected to the engine again (it had closed this monitor's connection): the
    /// queue shown is dropped, and the snapshot that follows is the queue; the text, why, is
    /// shown in the status line. The selection stays on its job when the snapshot has it.
    case queueReplaced(String)
    /// The engine's commit-confirmed runs (`armed` events of an attached engine), newest first.
    case armed(ArmedRuns)
    /// The grouped board's link says something about its hosts (`installtop attach --host …`).
    case host(HostEvent)
}
