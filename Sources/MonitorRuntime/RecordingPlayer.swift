import Glibc
import InstallEngine
import InstallHistory
import TerminalUI

/// Plays a recording's schedule on the operator's terminal (in raw mode) from the board's
/// history view: each step's text written when it is due, a key pressed stopping it at once
/// (the key is read and dropped, never sent anywhere), as does the board's stop descriptor
/// becoming readable (SIGTERM or SIGHUP).
struct RecordingPlayer {
    var input: Int32 = 0
    var output: Int32 = 1
    let stopDescriptor: Int32

    /// How the playing ended.
    enum Ending: Equatable {
        case played
        case keyPressed
        case stopped
    }

    /// Writes `schedule`'s steps on time, `modes` following what they do to the screen;
    /// returns how it ended.
    func play(_ schedule: AsciicastSchedule, modes: inout TerminalModeTracker) -> Ending {
        let start = ContinuousClock.now
        for step in schedule.steps {
            let due = start + .microseconds(Int64(step.at * 1_000_000))
            while ContinuousClock.now < due {
                let left = due - ContinuousClock.now
                let milliseconds = Int32(clamping: left.wholeMilliseconds + 1)
                if let ending = wait(milliseconds: milliseconds) { return ending }
            }
            if let ending = wait(milliseconds: 0) { return ending }
            let bytes = Array(step.data.utf8)
            modes.scan(bytes)
            write(bytes)
        }
        return .played
    }

    /// Waits up to `milliseconds` for a key (read and dropped) or the stop descriptor; `nil`
    /// when neither came.
    func wait(milliseconds: Int32) -> Ending? {
        var descriptors = [
            pollfd(fd: input, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopDescriptor, events: Int16(POLLIN), revents: 0),
        ]
        guard poll(&descriptors, 2, milliseconds) > 0 else { return nil }
        if Int32(descriptors[1].revents) & Int32(POLLIN) != 0 { return .stopped }
        guard Int32(descriptors[0].revents) & Int32(POLLIN | POLLHUP | POLLERR) != 0 else { return nil }
        var drop = [UInt8](repeating: 0, count: 256)
        // A terminal that went away stops the playing as a key would.
        _ = read(input, &drop, drop.count)
        return .keyPressed
    }

    func write(_ bytes: [UInt8]) {
        TerminalOutput.write(bytes, to: output)
    }
}
