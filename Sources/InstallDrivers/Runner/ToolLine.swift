import InstallEngine

/// One line a driver's tool wrote: on its stdout or stderr (`stream` set), or on its status
/// channel, file descriptor 3 (`stream` nil: apt's Status-Fd), without its newline.
struct ToolLine: Sendable {
    var stream: StandardStream?
    var text: String
}
