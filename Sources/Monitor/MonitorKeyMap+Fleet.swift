import TerminalUI

extension MonitorKeyMap {
    /// The board's keys for its hosts' pending snapshots (filter, order, refresh) and for a shell
    /// on a host.
    static var boardFleetBindings: [KeyBinding] {
        [
            KeyBinding([.character("F")], .cycleHostFilter, help: "F",
                       "hosts shown: all, up to date, pending, security pending, reboot, failed, unreachable"),
            KeyBinding([.character("o")], .cycleHostSort, help: "o", "sort hosts: as given, by name, by pending, security first"),
            KeyBinding([.character("P")], .refreshHosts, help: "P",
                       "refresh apt's lists (a job) of the marked hosts, a few at a time, or of the selected host"),
            KeyBinding([.character("s")], .openShell, help: "s",
                       "a shell on the selected host (ssh -t), recorded in your history: installtop replay RUN plays it"),
        ]
    }
}
