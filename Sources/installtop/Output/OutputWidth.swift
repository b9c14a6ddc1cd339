#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc

/// How wide the text installtop prints to stdout may be.
enum OutputWidth {
    /// The terminal's columns when stdout is one; otherwise `COLUMNS` when it is a number;
    /// otherwise 80.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return Int(size.ws_col)
        }
        if let columns = environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }

    /// The width a table is cut to: the terminal's columns, or `COLUMNS`; `nil` (nothing cut)
    /// when stdout is a file or a pipe, where a script or a later reader wants every word, as
    /// `dpkg -l` gives it.
    static func forCutting(environment: [String: String] = ProcessInfo.processInfo.environment) -> Int? {
        if isatty(STDOUT_FILENO) == 1 || environment["COLUMNS"].flatMap(Int.init) != nil { return current(environment: environment) }
        return nil
    }
}
