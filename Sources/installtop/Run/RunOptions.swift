import ArgumentParser

/// The options `run` and `demo` share.
struct RunOptions: ParsableArguments {
    @Flag(help: "Print one line per event instead of the monitor (the default when stdout is not a terminal).")
    var plain = false

    @Flag(help: "Print JSON Lines events on stdout.")
    var json = false

    @Flag(help: "With --json, also emit every output line of every update as a `log` event.")
    var jsonLogs = false

    @Option(help: ArgumentHelp("The monitor's theme: a name from `installtop themes` or a path.", valueName: "name|path"))
    var theme: String?

    @Option(help: "How many jobs run at once.")
    var concurrency = 1

    @Option(help: ArgumentHelp("Seconds between SIGTERM and SIGKILL when aborting (overrides the manifest).", valueName: "seconds"))
    var abortGrace: Double?

    @Option(help: ArgumentHelp("The history database.", valueName: "path"))
    var historyDb: String?

    @Flag(help: "Do not record the install history.")
    var noHistory = false

    @Flag(help: "Close the monitor when every job is done.")
    var exitWhenDone = false

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1; got \(concurrency)") }
        if let abortGrace, !(abortGrace >= 0 && abortGrace.isFinite) {
            throw ValidationError("--abort-grace must be a number of seconds, 0 or more; got \(abortGrace)")
        }
        if plain && json { throw ValidationError("--plain and --json exclude each other") }
        if jsonLogs && !json { throw ValidationError("--json-logs goes with --json") }
        if noHistory && historyDb != nil { throw ValidationError("--no-history and --history-db exclude each other") }
    }
}
