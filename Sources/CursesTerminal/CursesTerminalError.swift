/// Why `CursesTerminal.start()` could not take over the terminal. The terminal is left as it
/// was in every case.
public enum CursesTerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Standard input or output is not a terminal (redirected, or run without a tty).
    case notATerminal
    /// curses does not know the terminal type (`TERM`, `nil` when unset) or could not set it up.
    case unsupportedTerminal(term: String?)
    /// Another `CursesTerminal` is running; only one can own the terminal at a time.
    case alreadyInUse
    /// Creating the signal pipe failed with this `errno`.
    case signalPipe(errno: Int32)

    /// A message for the user, naming what to fix.
    public var description: String {
        switch self {
        case .notATerminal:
            return "standard input and output must be a terminal"
        case .unsupportedTerminal(let term):
            return "cannot use terminal type \(term.map { "'\($0)'" } ?? "(TERM is not set)")"
        case .alreadyInUse:
            return "the terminal is already in use by another monitor"
        case .signalPipe(let errno):
            return "cannot create the signal pipe (errno \(errno))"
        }
    }
}
