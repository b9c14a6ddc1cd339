import InstallEngine

/// The dnf transaction of a dnf job run without a separate plan (`installtop dnf … --yes`): dnf
/// resolves once. The helper starts in `run` mode before its job exists; its items and
/// `planned` are the plan (rule 22: said before anything is fetched or changed), and every
/// later line is kept, in order, until the job's driver takes the helper over (`DNFDriver`,
/// through `LineDriverRunner.takingOver`): a `PreStartedTool` read by `DNFHelperToolKind`.
///
/// Until rpm's transaction starts nothing has changed: `stop` (SIGINT) then ends the helper at
/// once; once rpm runs, the helper defers it to the transaction's end. When the helper ends
/// before its plan (a refusal, a stop), `waitForBeginning` says so with its exit and its refusal.
public typealias DNFHelperTransaction = PreStartedTool<DNFHelperToolKind>

extension PreStartedTool where Kind == DNFHelperToolKind {
    /// Starts `job`'s transaction with `helper` and returns at once; with a `keeper`, the helper
    /// keeps what the transaction takes away into its folder (the job's driver records it).
    public static func start(_ job: DNFJob, helper: DNFHelper, keeper: (any DNFVersionKeeping)? = nil,
                             backend: ProcessBackend = ProcessBackend()) -> DNFHelperTransaction {
        let transaction = DNFHelperTransaction(kind: DNFHelperToolKind(job: job), reading: DNFHelperToolKind.Reading(plan: DNFPlanReading(job: job)))
        let spec = ChildSpec(command: .argv(helper.arguments(.run, job: job, keepingInto: keeper?.folder)), environment: helper.environment)
        transaction.start(spec, backend: backend)
        return transaction
    }

    /// The job the helper runs.
    public var job: DNFJob { kind.job }
}
