import ArgumentParser

/// What a package kind fills in for the commands every package kind has the same way
/// (`PackageInstallCommand`, `PackageRemoveCommand`, `PackageUpgradeCommand`,
/// `PackageUndoCommand`, `PackageRevertCommand`: `installtop KIND install|remove|upgrade|undo|revert
/// …`, registered as the kind's subcommands in its command): its name, its options, its request
/// for each verb, the help and completion of the packages' argument, the words and arguments of
/// its upgrade, how a request runs (plain, or armed with `--confirm`), how its undo runs, and
/// what its exit statuses mean for the man pages. A kind's command folder
/// holds one (`APTPackageCommands`, `DNFPackageCommands`) and only what is its own beside it.
protocol PackageCommandKind {
    /// The options every command of the kind takes beside `run`'s (`--yes`, the root).
    associatedtype Options: PackageKindOptions
    /// What the operator asked the tool for.
    associatedtype Request
    /// A request run with `--confirm` (`CommitConfirmedSession`).
    associatedtype Armed: ArmedJob
    /// What `upgrade` takes before the options (dnf's: the packages); none by default.
    associatedtype UpgradeArguments: ParsableArguments = NoArguments
    /// What `upgrade` takes after `--confirm`'s options (apt's: the `--hosts` rollout); none by
    /// default.
    associatedtype UpgradeExtras: ParsableArguments = NoArguments

    /// The kind's name, as the history records its runs (`apt`, `dnf`).
    static var tool: String { get }

    /// `upgrade`'s one-line help.
    static var upgradeAbstract: String { get }
    /// `upgrade`'s longer help; empty for none.
    static var upgradeDiscussion: String { get }

    /// The help of `install`'s packages argument.
    static var installHelp: String { get }
    /// How a shell completes `install`'s packages; `nil`: it does not.
    static var installCompletion: CompletionKind? { get }
    /// How a shell completes `remove`'s packages; `nil`: it does not.
    static var removeCompletion: CompletionKind? { get }

    static func install(_ packages: [String]) -> Request
    static func remove(_ packages: [String]) -> Request

    /// The request planned, asked for and run as one job (the kind's session).
    static func runSession(_ request: Request, options: Options) -> ExitStatus
    /// The request as a job armed with `--confirm`.
    static func armedJob(_ request: Request, options: Options) -> Armed

    /// Refuses `upgrade`'s options that do not go together, before anything runs; by default
    /// none do not.
    /// - Throws: a `ValidationError` (invalid usage).
    static func validateUpgrade(_ extras: UpgradeExtras, options: Options) throws

    /// Runs `upgrade`: the kind's upgrade request, through `run` (armed when `confirmation`
    /// names a window) or as the kind's extras say.
    /// - Throws: `confirmation`'s refusal of its own options.
    static func upgrade(_ arguments: UpgradeArguments, options: Options, confirmation: ConfirmOptions, extras: UpgradeExtras) throws -> ExitStatus

    /// What each exit status means for a command that runs one request and may be armed
    /// (`install`, `remove`, `upgrade`), for its man page.
    static var armableExitStatuses: [(status: Int32, meaning: String)] { get }

    /// `undo`'s one-line help and its longer help.
    static var undoAbstract: String { get }
    static var undoDiscussion: String { get }
    /// Runs `undo JOBRUN`: the run's undo planned, asked for and run as one of the kind's jobs;
    /// a run that cannot be undone refused with its reason on stderr and nothing run
    /// (`invalidUsage`).
    static func undo(_ jobRun: Int, options: Options) -> ExitStatus
    /// What each of `undo`'s exit statuses means, for its man page.
    static var undoExitStatuses: [(status: Int32, meaning: String)] { get }

    /// `revert`'s one-line help and its longer help (what the kind's revert acts on and waits
    /// for).
    static var revertAbstract: String { get }
    static var revertDiscussion: String { get }
    /// What each of `revert`'s exit statuses means, for its man page.
    static var revertExitStatuses: [(status: Int32, meaning: String)] { get }
}

extension PackageCommandKind {
    static var upgradeDiscussion: String { "" }

    static func validateUpgrade(_ extras: UpgradeExtras, options: Options) throws {}

    /// Runs `request`: armed when `confirmation` names a window, else the kind's session.
    /// - Throws: `confirmation`'s refusal of its own options.
    static func run(_ request: Request, options: Options, confirmation: ConfirmOptions) throws -> ExitStatus {
        if let seconds = try confirmation.seconds {
            return CommitConfirmedSession(job: armedJob(request, options: options), confirm: confirmation, seconds: seconds).run()
        }
        return runSession(request, options: options)
    }
}
