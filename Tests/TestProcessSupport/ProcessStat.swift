import Foundation

/// A process's or a thread's `stat` file in /proc, as the tests read it.
public enum ProcessStat {
    /// The fields of `DIRECTORY/stat` after the command name, which may hold spaces and
    /// parentheses (hence the last ") "): the state first (field 3 of proc(5)), then the parent,
    /// the process group, the session, …; the start time is index 19. `directory` is
    /// `/proc/PID`, `/proc/PID/task/TID` or `/proc/self/task/TID`; `nil` when there is no such
    /// process or thread.
    public static func fields(in directory: String) -> [Substring]? {
        guard let stat = try? String(contentsOfFile: directory + "/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return nil }
        return stat[afterName.upperBound...].split(separator: " ")
    }

    /// The state letter of process `pid` (`R`, `S`, `T`, `Z`, …); `nil` when there is none.
    public static func state(of pid: pid_t) -> Character? {
        fields(in: "/proc/\(pid)")?.first?.first
    }
}
