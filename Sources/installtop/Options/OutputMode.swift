import Glibc

/// How a run shows itself: the monitor on a terminal, otherwise plain lines; `--plain` and
/// `--json` force one.
enum OutputMode {
    case monitor
    case plain
    case json

    init(options: RunOptions, stdoutIsTerminal: Bool = isatty(STDOUT_FILENO) == 1) {
        if options.json {
            self = .json
        } else if options.plain || !stdoutIsTerminal {
            self = .plain
        } else {
            self = .monitor
        }
    }
}
