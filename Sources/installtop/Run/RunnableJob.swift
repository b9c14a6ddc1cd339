import InstallEngine

/// A job ready to hand to the queue: a manifest's list of commands, or a package job whose plan
/// apt has already given (its driver runs the transaction).
struct RunnableJob {
    var name: String
    var operation: UpdateOperation
    var updates: [Update]
    var stopOnFailure: Bool
    /// Runs the whole job (apt); `nil` for one child per update.
    var driver: (any JobDriver)?
    /// Held in the queue until the operator says yes in the monitor (an apt plan without `--yes`).
    var needsConfirmation: Bool

    /// A manifest job of commands.
    init(_ job: ManifestJob) {
        self.init(name: job.name, operation: job.operation, updates: job.updates, stopOnFailure: job.stopOnFailure, driver: nil)
    }

    /// Every job of `manifest`, package jobs planned by `planner` now, before anything runs, and
    /// the sessions of its fleet runs, checked by `fleets`. A package job with nothing to do is
    /// left out, saying so on stderr.
    /// - Throws: the first refusal, located at its job (`FILE:LINE`), in apt's words.
    static func jobs(of manifest: Manifest, file: String, planner: any PackageJobPlanner, fleets: any FleetJobPlanner)
        throws(JobPlanRefusal) -> (jobs: [RunnableJob], sessions: [any SessionDriver]) {
        var jobs: [RunnableJob] = []
        var sessions: [any SessionDriver] = []
        for job in manifest.jobs {
            if let fleet = job.fleet {
                do {
                    sessions.append(try fleets.driver(for: fleet))
                } catch {
                    throw JobPlanRefusal(message: "\(file):\(job.line): job `\(job.name)`: ansible: nothing was run:\n\(error)")
                }
                continue
            }
            guard let package = job.package else {
                jobs.append(RunnableJob(job))
                continue
            }
            let plan: PlannedPackageJob
            do {
                plan = try planner.plan(package)
            } catch {
                throw JobPlanRefusal(message: "\(file):\(job.line): job `\(job.name)`: \(package.request.summary): nothing was run:\n\(error)")
            }
            guard !plan.updates.isEmpty else {
                StandardOutput.stderr.line("\(file):\(job.line): job `\(job.name)`: \(package.request.summary): nothing to do; not queued")
                continue
            }
            jobs.append(RunnableJob(name: "\(job.name) · \(plan.summary)", operation: job.operation, updates: plan.updates,
                                    stopOnFailure: job.stopOnFailure, driver: plan.driver))
        }
        return (jobs, sessions)
    }

    init(name: String, operation: UpdateOperation, updates: [Update], stopOnFailure: Bool = false, driver: (any JobDriver)? = nil,
         needsConfirmation: Bool = false) {
        self.name = name
        self.operation = operation
        self.updates = updates
        self.stopOnFailure = stopOnFailure
        self.driver = driver
        self.needsConfirmation = needsConfirmation
    }
}
