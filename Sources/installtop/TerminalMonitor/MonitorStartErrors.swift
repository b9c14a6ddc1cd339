import ArgumentParser
import CursesTerminal
import Monitor

/// What a command that shows the monitor (`attach`, `watch`) says when the monitor cannot be
/// shown: a theme that cannot be read, or no terminal to draw on.
enum MonitorStartErrors {
    /// Runs `monitor` and returns what it returns. A `ThemeError` or `CursesTerminalError` it
    /// throws is said on stderr, naming `command` for a missing terminal, and becomes exit status
    /// 2; any other error is thrown as it is.
    static func presenting<Result>(for command: String, _ monitor: () throws -> Result) throws -> Result {
        do {
            return try monitor()
        } catch let error as ThemeError {
            StandardOutput.stderr.line("installtop: \(error)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        } catch let error as CursesTerminalError {
            StandardOutput.stderr.line("installtop: \(command) needs a terminal (\(error)); `installtop status` prints the queue instead")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
    }
}
