import Glibc

/// Turns a process's start (clock ticks after boot, `/proc/PID/stat`) into seconds since the
/// epoch, from `btime` in `/proc/stat`, so it can be set against a file's modification time.
struct BootClock {
    /// When the machine booted, in seconds since the epoch.
    var bootTime: Double
    var ticksPerSecond: Double

    /// The clock of the `/proc` at `procRoot`; `nil` when its `stat` has no `btime`.
    init?(procRoot: String) {
        guard let seconds = ProcFS(root: procRoot).bootTime() else { return nil }
        bootTime = Double(seconds)
        let ticks = sysconf(Int32(_SC_CLK_TCK))
        ticksPerSecond = ticks > 0 ? Double(ticks) : 100
    }

    /// The start of a process `startTicks` after boot, in seconds since the epoch.
    func seconds(afterBoot startTicks: UInt64) -> Double {
        bootTime + Double(startTicks) / ticksPerSecond
    }
}
