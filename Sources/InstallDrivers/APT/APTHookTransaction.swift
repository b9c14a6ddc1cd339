import InstallEngine

/// The apt transaction of an apt job run without a separate plan (`installtop apt … --yes`):
/// apt resolves once. It starts before its job exists, with `APTHookPlan`'s hook, and holds
/// what apt says until the job's driver takes it over (`APTDriver`, through
/// `LineDriverRunner.takingOver`): a `PreStartedTool` read by `APTHookToolKind`.
///
/// Until the hook has spoken nothing has changed (apt has resolved and fetched only): its
/// downloads are said through `onDownload`, `stop` then stops apt safely, and when apt
/// ends before the hook (nothing to do, a refusal, a failed download) `waitForBeginning` says so
/// with apt's exit and words. Once the hook has spoken, dpkg runs at once, or, with a `keeper`,
/// once the versions the plan replaces are kept for undo (rule 33): the hook waits for that on
/// a thread of its own, and a package that could not be kept is said on its update
/// (`APTKeptVersion.noteLinePrefix` lines, before any of dpkg's). Every later line is kept, in
/// order, for the driver.
///
/// The apt driver runs its own transactions this way too when it keeps versions (its plan
/// then came from a simulation, and its driver is attached before apt starts).
public typealias APTHookTransaction = PreStartedTool<APTHookToolKind>

extension PreStartedTool where Kind == APTHookToolKind {
    /// Starts `job`'s transaction in `environment` and returns at once.
    /// - Parameters:
    ///   - keeper: keeps the versions the plan replaces before dpkg starts; `nil` keeps none.
    ///   - planned: the job's simulated plan, when it has one: the `keeper` starts keeping
    ///     what it replaces at once, beside apt's reading and fetching (`keepAhead`).
    ///   - jobName: the job's name for apt's hooks (`INSTALLTOP_JOB`), when the job exists.
    ///   - onDownload: called with `downloading N of M · P %` as apt fetches (each
    ///     change once, on the process poller's thread), until the plan comes.
    public static func start(_ job: PackageJob, environment: APTEnvironment, aptGet: String = "/usr/bin/apt-get",
                             backend: ProcessBackend = ProcessBackend(), keeper: (any APTVersionKeeping)? = nil,
                             planned: [PackageChange]? = nil, jobName: String? = nil,
                             onDownload: @escaping @Sendable (String) -> Void = { _ in }) -> APTHookTransaction {
        if let keeper, let planned, planned.contains(where: APTVersionKeeper.replacesInstalledVersion) {
            keeper.keepAhead(planned, environment: environment)
        }
        // After `keepAhead`, which reserves the history run the mark names.
        let variables = environment.transactionEnvironment(for: job.request, jobName: jobName, run: keeper?.reservedRun)
        let kind = APTHookToolKind(environment: environment, keeper: keeper, marker: variables[InstalltopRunMarker.variable],
                                   onDownload: onDownload)
        let transaction = APTHookTransaction(kind: kind, reading: APTHookToolKind.Reading())
        let commandLine = APTCommandLine(request: job.request, aptGet: aptGet)
        let spec = ChildSpec(command: .argv(environment.command(commandLine.transactionWithPlanHook(through: kind.gate))), environment: variables,
                             controlChannel: true)
        // Until the hook is answered apt waits for installtop: its lines are read as they come.
        transaction.start(spec, backend: backend, promptlyAtFirst: true)
        return transaction
    }

    /// The root and configuration apt acts in.
    public var environment: APTEnvironment { kind.environment }

    /// Whether apt's hook gave the plan: dpkg runs, or has run, since.
    public var planCame: Bool {
        withState { state in
            if case .plan = state.beginning { true } else { false }
        }
    }
}
