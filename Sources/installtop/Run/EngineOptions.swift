import ArgumentParser
import InstallEngine

/// The options of a process that owns an engine: `run`, `demo` and `serve`.
struct EngineOptions: ParsableArguments {
    @Option(help: "How many jobs run at once.")
    var concurrency = 1

    @Option(help: ArgumentHelp("Seconds between SIGTERM and SIGKILL when aborting (overrides the manifest).", valueName: "seconds"))
    var abortGrace: Double?

    @Option(help: ArgumentHelp("The history database.", valueName: "path"))
    var historyDb: String?

    @Flag(help: "Do not record the install history.")
    var noHistory = false

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1; got \(concurrency)") }
        if let abortGrace, !(abortGrace >= 0 && abortGrace.isFinite) {
            throw ValidationError("--abort-grace must be a number of seconds, 0 or more; got \(abortGrace)")
        }
        if noHistory && historyDb != nil { throw ValidationError("--no-history and --history-db exclude each other") }
    }

    /// The engine's settings these options make.
    var configuration: EngineConfiguration {
        EngineConfiguration(abortGraceOverride: abortGrace.map { .milliseconds(Int64($0 * 1000)) })
    }
}
