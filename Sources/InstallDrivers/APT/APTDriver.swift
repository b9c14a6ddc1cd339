import InstallEngine

/// Runs an apt job's plan as one apt-get transaction (Documentation/APT-JOBS.md, rules 21–26):
/// every package an update with its own bar, an abort that lets the package being worked on
/// finish (`DpkgArchiveGate` between dpkg's archives, and SIGINT to apt-get alone), and a forced
/// abort that kills apt and dpkg wherever they run, then repairs dpkg's database in the same root.
public struct APTDriver: JobDriver {
    public let plan: APTPlan
    /// The apt-get to run.
    public let aptGet: String
    private let backend: ProcessBackend
    /// The transaction that made the plan (`APTHookTransaction`), which the first start takes
    /// over; `nil` when the plan came from a simulation.
    private let running: APTHookTransaction?
    /// Keeps the versions the plan replaces before dpkg touches them (rule 33); `nil` keeps none.
    private let keeper: (any APTVersionKeeping)?
    /// What keeps the versions the plan replaces (its owner shares the keeper's history run
    /// with the recorder); `nil` keeps none.
    public var versionKeeper: (any APTVersionKeeping)? { keeper }

    /// - Parameter transaction: the transaction whose hook gave `plan`
    ///   (`installtop apt … --yes`): the job's start takes apt over as it runs, and a retry runs
    ///   a transaction of its own; `nil` when the plan came from a simulation.
    /// - Parameter keeper: keeps the versions the plan replaces, for undo, before dpkg touches
    ///   them: a transaction started here then runs with `APTHookPlan`'s hook, which waits for
    ///   it (a `running` transaction was started with it). `nil` keeps nothing (`--no-history`).
    public init(plan: APTPlan, running transaction: APTHookTransaction? = nil, keeper: (any APTVersionKeeping)? = nil,
                aptGet: String = "/usr/bin/apt-get", backend: ProcessBackend = ProcessBackend()) {
        self.plan = plan
        self.aptGet = aptGet
        self.backend = backend
        self.keeper = keeper
        running = transaction
    }

    /// apt runs already when its hook gave the plan and no job has taken it over yet.
    public var runsAlready: Bool { running?.canBeTakenOver ?? false }

    /// Whether apt's running transaction was asked to stop before any job took it over.
    public var stopRequestedAlready: Bool { runsAlready && running?.stopRequested == true }

    /// apt's safe point (rule 24): the package dpkg is on is finished, no other starts.
    public var stopNote: JobStopNote? { Self.stopNote }

    public var packageTool: String? { "apt" }

    /// What an abort does to an apt job, for the question before it.
    public static let stopNote = JobStopNote(
        sentence: "apt finishes the running package (unpack and configure), then stops; no other package starts.",
        short: "apt finishes its running package first.")

    /// Runs apt's request again; reports follow `request.updates`, which is the plan or, for a
    /// retry, the packages that failed or were aborted (the rest apt finds done already).
    public func start(_ request: DriverRunRequest, reporter: any DriverReporter) -> any RunningDriver {
        var plan = plan
        let changes = Dictionary(plan.changes.map { ($0.package, $0) }, uniquingKeysWith: { first, _ in first })
        plan.changes = request.updates.compactMap { changes[$0.id] }
        var translator = APTTranslator(plan: plan, aptGet: aptGet)
        if plan.changes.count == self.plan.changes.count, let running,
           let runner = Self.runner(takingOver: running, translator: translator, reporter: reporter) {
            return runner
        }
        if let keeper {
            // apt's own hook gives the moment: after its downloads, before dpkg's first run.
            let transaction = APTHookTransaction.start(plan.job, environment: plan.environment, aptGet: aptGet, backend: backend,
                                                       keeper: keeper, planned: plan.changes, jobName: request.jobName)
            if let runner = Self.runner(takingOver: transaction, translator: translator, reporter: reporter) {
                return runner
            }
        }
        let commandLine = APTCommandLine(request: plan.job.request, aptGet: aptGet)
        translator.gate = DpkgArchiveGate.make(for: plan.environment)
        let environment = plan.environment.transactionEnvironment(for: plan.job.request, jobName: request.jobName,
                                                                  run: keeper?.reservedRun)
        translator.marker = environment[InstalltopRunMarker.variable]
        let spec = ChildSpec(command: .argv(plan.environment.command(commandLine.transaction(through: translator.gate))), environment: environment)
        return LineDriverRunner.start(spec, backend: backend, translator: translator, state: translator.initialState(), reporter: reporter)
    }

    /// A runner for `transaction`'s process, with `translator` acting through the transaction:
    /// every line apt wrote so far goes through it in order, then each later one; `nil` when a
    /// driver took the transaction over already.
    private static func runner(takingOver transaction: APTHookTransaction, translator: APTTranslator,
                               reporter: any DriverReporter) -> (any RunningDriver)? {
        var translator = translator
        translator.transaction = transaction
        return LineDriverRunner.takingOver(transaction, translator: translator,
                                           state: translator.initialState(rebootListBefore: transaction.kind.rebootListBefore), reporter: reporter)
    }
}
