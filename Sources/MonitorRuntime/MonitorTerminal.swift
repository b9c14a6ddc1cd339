import TerminalUI

/// What `MonitorLoop` needs of a terminal: a buffer drawn, keys read, the size, the signals
/// that became events, and the descriptors to sleep on. `CursesTerminal` is the real one;
/// tests use a fake. Not `Sendable`: only the loop's thread touches it.
public protocol MonitorTerminal: AnyObject {
    /// Readable when keys may be waiting (then call `readKeys()`); its POLLHUP means the
    /// terminal is gone.
    var inputDescriptor: Int32 { get }
    /// Readable after SIGINT, SIGTERM or SIGHUP (then call `takeSignals()`).
    var signalDescriptor: Int32 { get }
    var size: (width: Int, height: Int) { get }
    /// The keys typed since the last call, `.resize` after a resize.
    func readKeys() -> [Key]
    /// The termination signals received since the last call, each once.
    func takeSignals() -> [Int32]
    /// Shows `buffer`.
    func draw(_ buffer: Buffer)
    /// Gives the terminal back to another program (the board's shell on a host) until
    /// `resume()`: nothing is drawn or read meanwhile; the signals still arrive.
    func suspend()
    /// Takes the terminal back after `suspend()`; the next `draw` repaints everything.
    func resume()
    /// Forget what is on the screen: the next `draw` paints everything (after a resize).
    func invalidate()
}
