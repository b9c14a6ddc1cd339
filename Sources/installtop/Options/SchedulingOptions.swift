import ArgumentParser
import InstallEngine

/// How an engine that runs manifests schedules and stops jobs: `run`, `demo` and `serve`.
/// `apt` and `ansible` run one job whose driver stops at its own safe points, so they take
/// none of these.
struct SchedulingOptions: ParsableArguments {
    @Option(help: "How many jobs run at once.")
    var concurrency = 1

    @Option(help: ArgumentHelp("Seconds between SIGTERM and SIGKILL when aborting or after a timeout (overrides the manifest).", valueName: "seconds"))
    var abortGrace: Double?

    func validate() throws {
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1; got \(concurrency)") }
        if let abortGrace, !(abortGrace >= 0 && abortGrace.isFinite) {
            throw ValidationError("--abort-grace must be a number of seconds, 0 or more; got \(abortGrace)")
        }
    }

    /// The engine's settings these options make.
    var configuration: EngineConfiguration {
        EngineConfiguration(abortGraceOverride: abortGrace.map { .milliseconds(Int64($0 * 1000)) })
    }
}
