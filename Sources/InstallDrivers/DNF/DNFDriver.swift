import InstallEngine

/// Runs a dnf job's plan as one dnf transaction through installtop's helper (dnf's Python API;
/// Documentation/DNF-JOBS.md, rules 21–26): every package an update with its own bar, a stop
/// that ends the job at once before rpm's transaction and waits for its end once rpm runs, and
/// every verdict read from the rpm database.
public struct DNFDriver: JobDriver {
    public let plan: DNFPlan
    private let helper: DNFHelper
    private let backend: ProcessBackend
    /// The transaction whose helper said the plan (`installtop dnf … --yes`), which the first
    /// start takes over; `nil` when the plan came from a plan of its own.
    private let running: DNFHelperTransaction?
    /// Keeps the versions the transaction takes away, for undo; `nil` keeps none
    /// (`--no-history`, a plan only validated).
    public let versionKeeper: (any DNFVersionKeeping)?

    /// - Parameter running: the helper started with `versionKeeper` (`DNFHelperTransaction.start`),
    ///   when it said the plan itself.
    public init(plan: DNFPlan, helper: DNFHelper, running transaction: DNFHelperTransaction? = nil,
                keeper: (any DNFVersionKeeping)? = nil, backend: ProcessBackend = ProcessBackend()) {
        self.plan = plan
        self.helper = helper
        self.backend = backend
        running = transaction
        versionKeeper = keeper
    }

    /// The helper runs already when it said the plan and no job has taken it over yet.
    public var runsAlready: Bool { running?.canBeTakenOver ?? false }

    /// Whether the running helper was asked to stop before any job took it over.
    public var stopRequestedAlready: Bool { runsAlready && running?.stopRequested == true }

    public var packageTool: String? { "dnf" }

    public var stopNote: JobStopNote? { Self.stopNote }

    /// What an abort does to a dnf job, for the question before it.
    public static let stopNote = JobStopNote(
        sentence: "Before rpm's transaction dnf stops at once and nothing is installed; once rpm runs, the stop waits for its end (rpm cannot be cut safely).",
        short: "Once rpm runs, the stop waits for its end.",
        // Short: it follows "Forcing the abort of NAME: " on the monitor's one footer line.
        forcing: "killed before rpm runs, refused while it runs")

    /// Runs the planned transaction; reports follow `request.updates`, which is the plan or,
    /// for a retry, the packages that failed or were aborted.
    public func start(_ request: DriverRunRequest, reporter: any DriverReporter) -> any RunningDriver {
        var plan = plan
        let items = Dictionary(plan.items.map { (plan.updateID(of: $0), $0) }, uniquingKeysWith: { first, _ in first })
        plan.items = request.updates.compactMap { items[$0.id] }
        if plan.items.count != self.plan.items.count {
            // A retry asks dnf for what is left, in dnf's words: the packages still to change.
            plan.job.request = Self.retryRequest(of: plan)
        }
        // Before any update starts, so the run the history reserves then records the root.
        versionKeeper?.planned(plan)
        let translator = DNFTranslator(plan: plan, database: DNFRPMDatabase(root: plan.job.installRoot),
                                       rebootRule: DNFRebootRule.of(root: plan.job.installRoot), keeper: versionKeeper)
        if plan.items.count == self.plan.items.count, let running,
           let runner = LineDriverRunner.takingOver(running, translator: translator, state: DNFRunState(plan: plan), reporter: reporter) {
            return runner
        }
        let arguments = helper.arguments(.run, job: plan.job, expecting: plan.items, keepingInto: versionKeeper?.folder)
        let spec = ChildSpec(command: .argv(arguments), environment: helper.environment)
        return LineDriverRunner.start(spec, backend: backend, translator: translator, state: DNFRunState(plan: plan), reporter: reporter)
    }

    /// The request a retry of `plan`'s packages makes: the removals again when they are all
    /// removals, else the installs and upgrades again (each at the version planned).
    private static func retryRequest(of plan: DNFPlan) -> DNFRequest {
        // An undo again: dnf finds nothing to do for what is back already, so the transaction
        // is what is left, as the retry expects.
        if case .undo = plan.job.request { return plan.job.request }
        if plan.items.allSatisfy(\.isRemoval) { return .remove(plan.items.map(\.name)) }
        return .install(plan.items.filter { !$0.isRemoval }.map { "\($0.name)-\($0.newVersion ?? "")" })
    }
}
