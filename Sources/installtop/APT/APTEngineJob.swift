import EngineDaemon
import EngineWire
import InstallDrivers
import InstallEngine

/// An `installtop apt …` job run in the machine's engine (`APTEngineRoute`): the engine plans it
/// (and keeps the versions it replaces, and records it) as it plans a submitted one, and this
/// terminal follows it (`EngineJobFollower`). Without `--yes` the job waits in the engine for
/// the yes of the attached monitor's plan dialog; an undo is planned there from the engine's
/// history (`undo`), as `u` in an attached monitor does.
struct APTEngineJob {
    let request: PackageRequest
    let options: APTOptions
    let client: EngineClient
    let engine: EngineIdentity

    func run() -> ExitStatus {
        defer { client.close() }
        let name = APTJobKind.summary(of: request)
        StandardOutput.stderr.line("installtop: \(name) runs in the machine's engine (pid \(engine.pid), \(client.path)), recorded in "
            + "\(engine.history ?? "its history"): it goes on if this terminal closes; installtop attach watches it")
        let job: Int
        do throws(DaemonError) {
            job = try queue(named: name)
        } catch .refused(let refusal) where refusal.code == .nothingToDo {
            StandardOutput.stdout.line(APTPlanText.nothingToDo(for: request))
            return .succeeded
        } catch .refused(let refusal) {
            StandardOutput.stderr.line("installtop: \(name): nothing was run: \(refusal.message)")
            return .invalidUsage
        } catch {
            StandardOutput.stderr.line("installtop: \(name): nothing was run: \(error)")
            return .failed
        }
        let status = EngineJobFollower(path: client.path, job: job, options: options.run, engine: engine).run()
        // An engine killed mid-transaction ends nothing itself: what is left, and what finishes it.
        if status == .failed {
            for line in APTEngineLoss.lines(engine: engine) { StandardOutput.stderr.line("installtop: \(name): \(line)") }
        }
        return status
    }

    /// Queues the job (confirmed when `--yes` was given); returns its number.
    private func queue(named name: String) throws(DaemonError) -> Int {
        if case .undo(let run, _, _) = request {
            // The engine's history holds the run and its kept versions: it plans the undo.
            let reply = try client.request(.undo(run: run), timeout: DaemonRequest.replyTimeout)
            guard let job = reply.fields["job"]?.intValue else { throw .unexpectedMessage("undo's reply names no job") }
            if options.yes { try client.request(.job(.confirm(job: job)), timeout: DaemonRequest.replyTimeout) }
            return job
        }
        // The root the route matched (`--apt-config`, else `APT_CONFIG`), named so that the
        // engine's own environment does not choose it.
        let package = PackageJob(request: request, aptConfig: engine.aptConfig, chroot: nil)
        let submission = JobSubmission(name: name, operation: request.operation, updates: [], stopOnFailure: false,
                                       kind: JobKindSpec(kind: APTJobKind(keepers: nil), spec: package), yes: options.yes)
        let reply = try client.request(.submit([submission]), timeout: DaemonRequest.replyTimeout)
        guard let job = reply.fields["jobs"]?.arrayValue?.first?.intValue else { throw .unexpectedMessage("submit's reply names no job") }
        return job
    }
}
