import TerminalUI

/// Where each part of the monitor goes for a terminal size. The reducer uses it too, so that
/// PgUp/PgDn move by what is really visible.
///
/// From 60 columns the jobs pane sits left of the updates pane; below, it sits above it. The
/// output pane takes the bottom quarter (one line of text at the smallest sizes).
public struct MonitorLayout: Sendable, Hashable {
    /// The smallest size the monitor draws panes in.
    public static let minimumWidth = 40
    public static let minimumHeight = 12

    /// True below 40×12: only the "too small" message is drawn.
    public let isTooSmall: Bool
    public let header: Rect
    public let jobs: Rect
    public let updates: Rect
    public let output: Rect
    public let footer: Rect
    /// Rows 1…height−2: what the full-output view covers.
    public let body: Rect

    /// - Parameter board: the grouped board's layout, whose host rows say a host's job and
    ///   what it would upgrade: its jobs pane grows to 72 columns where one's stops at 44.
    public init(width: Int, height: Int, board: Bool = false) {
        isTooSmall = width < MonitorLayout.minimumWidth || height < MonitorLayout.minimumHeight
        let screen = Rect(x: 0, y: 0, width: width, height: height)
        let rows = screen.splitRows([.fixed(1), .rest, .fixed(1)])
        header = rows[0]
        body = rows[1]
        footer = rows[2]
        let outputHeight = height < 16 ? 3 : min(12, max(4, body.height / 4))
        let parts = body.splitRows([.rest, .fixed(outputHeight)])
        output = parts[1]
        if width >= 60 {
            let columns = parts[0].splitColumns([.fixed(min(board ? 72 : 44, max(24, width * 3 / 7))), .rest])
            jobs = columns[0]
            updates = columns[1]
        } else {
            let stacked = parts[0].splitRows([.fixed(max(3, parts[0].height * 2 / 5)), .rest])
            jobs = stacked[0]
            updates = stacked[1]
        }
    }

    /// Rows of items inside a bordered pane (never negative).
    public static func innerRows(_ pane: Rect) -> Int { max(0, pane.height - 2) }
}
