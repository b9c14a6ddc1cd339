import ArgumentParser

/// Where a process that owns an engine records its install history.
struct HistoryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The history database.", valueName: "path"))
    var historyDb: String?

    @Flag(help: "Do not record the install history.")
    var noHistory = false

    func validate() throws {
        if noHistory && historyDb != nil { throw ValidationError("--no-history and --history-db exclude each other") }
    }
}
