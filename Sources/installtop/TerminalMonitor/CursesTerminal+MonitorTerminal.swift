import CursesTerminal
import MonitorRuntime

/// The real terminal of the monitor's loop.
extension CursesTerminal: MonitorTerminal {}
