import ArgumentParser

/// What every command of a package kind takes (`APTOptions`, `DNFOptions`): the kind's own
/// options beside `run`'s (`--history`, `--json` …), which the commands every kind has the
/// same way read.
protocol PackageKindOptions: ParsableArguments {
    /// `run`'s options: the history, the output, the socket.
    var run: RunOptions { get }
}
