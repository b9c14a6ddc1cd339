import ArgumentParser
import EngineDaemon
import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// `installtop submit FILE`: queues a manifest's jobs on the running engine.
struct SubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit",
        abstract: "Queue a manifest's jobs on the running engine (installtop serve); print their ids.",
        discussion: """
            The manifest is read and checked here, like `installtop validate`; the engine gets \
            the jobs in full (commands, working directories, environments), so it never reads \
            the file. Children get the engine's environment plus the manifest's `env`. \
            Exit status: 0 queued, 1 the engine refused or could not be reached, 2 invalid manifest.
            """
    )

    @Argument(help: "The manifest (YAML) of jobs to queue.", completion: CompletionSources.manifest)
    var file: String

    @OptionGroup var socket: SocketOption

    @Option(help: ArgumentHelp("Seconds between SIGTERM and SIGKILL when these jobs are aborted (overrides the manifest).", valueName: "seconds"))
    var abortGrace: Double?

    @Flag(help: "Print {\"jobs\":[…]} instead of one line per job.")
    var json = false

    func validate() throws {
        if let abortGrace, !(abortGrace >= 0 && abortGrace.isFinite) {
            throw ValidationError("--abort-grace must be a number of seconds, 0 or more; got \(abortGrace)")
        }
    }

    func run() throws {
        let manifest = try ManifestArgument.load(file, kinds: EngineHost.kinds())
        let jobs = manifest.jobs.map { job in
            JobSubmission(
                name: job.name, operation: job.operation,
                updates: job.updates.map { update in
                    var update = update
                    if let abortGrace { update.abortGrace = .milliseconds(Int64(abortGrace * 1000)) }
                    return update
                },
                stopOnFailure: job.stopOnFailure, kind: job.kind)
        }
        let reply = try DaemonRequest.perform(.submit(jobs), socket: socket, timeout: DaemonRequest.replyTimeout)
        let ids = (reply.fields["jobs"]?.arrayValue ?? []).compactMap(\.intValue)
        if json {
            StandardOutput.stdout.line(#"{"jobs":["# + ids.map(String.init).joined(separator: ",") + "]}")
        } else {
            let sanitizer = TextEnvironment.sanitizer
            for job in jobs {
                guard let kind = job.kind, kind.kind.declaresJobs else { continue }
                StandardOutput.stdout.line(kind.queuedLine(name: sanitizer.sanitize(job.name), job: nil))
            }
            for (id, job) in zip(ids, jobs.filter { $0.kind?.kind.declaresJobs != true }) {
                let count = job.updates.count
                if let kind = job.kind {
                    StandardOutput.stdout.line(kind.queuedLine(name: sanitizer.sanitize(job.name), job: id))
                    continue
                }
                StandardOutput.stdout.line("job \(id) queued: \(sanitizer.sanitize(job.name)) (\(job.operation.name), \(count) update\(count == 1 ? "" : "s"))")
            }
        }
    }
}
