import InstallEngine
import InstallHistory

/// A job ready to hand to the queue: a manifest's list of commands, or a job of a kind whose
/// plan is made (its driver runs it).
struct RunnableJob {
    var name: String
    var operation: UpdateOperation
    var updates: [Update]
    var stopOnFailure: Bool
    /// Runs the whole job (apt's transaction); `nil` for one child per update.
    var driver: (any JobDriver)?
    /// Held in the queue until the operator says yes in the monitor (an apt plan without `--yes`).
    var needsConfirmation: Bool
    /// The job's history run when something else (its keeper of versions for undo) may reserve
    /// it first; `nil` lets the recorder reserve it.
    var runSlot: JobRunSlot?
    /// The history's run this job undoes (`installtop apt undo`); `nil` for every other job.
    var undoOf: Int?

    /// A manifest job of commands.
    init(_ job: ManifestJob) {
        self.init(name: job.name, operation: job.operation, updates: job.updates, stopOnFailure: job.stopOnFailure, driver: nil)
    }

    /// Every job of `manifest` planned now, before anything runs (`JobPlanner`): jobs for the
    /// queue and the sessions of session drivers. A job with nothing to do is left out, saying
    /// so on stderr.
    /// - Throws: the first refusal, located at its job (`FILE:LINE: job `name`: apt install x:
    ///   nothing was run:` and the tool's words).
    static func jobs(of manifest: Manifest, file: String) throws(ManifestPlanRefusal) -> (jobs: [RunnableJob], sessions: [any SessionDriver]) {
        var jobs: [RunnableJob] = []
        var sessions: [any SessionDriver] = []
        for job in manifest.jobs {
            let planned: PlannedJob
            // A kind whose jobs are known only once its driver runs (Ansible) plans at once.
            if let kind = job.kind, !kind.kind.declaresJobs { PlanningNotice.say("job `\(job.name)`: \(kind.description)") }
            do {
                planned = try JobPlanner.plan(name: job.name, operation: job.operation, updates: job.updates, stopOnFailure: job.stopOnFailure,
                                              kind: job.kind)
            } catch {
                throw ManifestPlanRefusal(message: "\(file):\(job.line): job `\(job.name)`: \(error.subject): nothing was run:\n\(error.reason)")
            }
            switch planned {
            case .job(let name, let operation, let updates, let stopOnFailure, let driver):
                jobs.append(RunnableJob(name: name, operation: operation, updates: updates, stopOnFailure: stopOnFailure, driver: driver,
                                        runSlot: EngineHost.runSlot(of: driver)))
            case .session(let driver):
                sessions.append(driver)
            case .nothingToDo(let reason):
                StandardOutput.stderr.line("\(file):\(job.line): job `\(job.name)`: \(reason); not queued")
            }
        }
        return (jobs, sessions)
    }

    init(name: String, operation: UpdateOperation, updates: [Update], stopOnFailure: Bool = false, driver: (any JobDriver)? = nil,
         needsConfirmation: Bool = false, runSlot: JobRunSlot? = nil, undoOf: Int? = nil) {
        self.runSlot = runSlot
        self.undoOf = undoOf
        self.name = name
        self.operation = operation
        self.updates = updates
        self.stopOnFailure = stopOnFailure
        self.driver = driver
        self.needsConfirmation = needsConfirmation
    }
}
