import InstallHistory

/// One package tool's part in a commit-confirmed job (`CommitConfirmedSession`,
/// Documentation/COMMIT-CONFIRMED.md): its plan and the refusals read from it, its job run
/// here, and where its run's revert acts. The flow around it (the baseline, the checks after,
/// the window, the countdown) is the same for every tool. apt's is `APTArmedJob`, dnf's
/// `DNFArmedJob`.
protocol ArmedJob {
    /// The package kind whose job this is; its undo reverts the run.
    associatedtype Kind: PackageCommandKind
    /// How messages name the job: `apt upgrade`, `dnf install lab-app`.
    var name: String { get }
    /// The job's run options (its history, `--json`, the output mode).
    var runOptions: RunOptions { get }
    /// `--yes`: the job runs without a question.
    var yes: Bool { get }

    /// The job as it runs without `--confirm`: what is left to do when there is nothing to arm
    /// (off a terminal without `--yes` it prints its plan and runs nothing).
    func runUnarmed() -> ExitStatus

    /// Plans the job and decides whether it can be armed; nothing changes on the system.
    func prepare() -> ArmingPreparation

    /// Runs the job in this process (never in the machine's engine), recording its run in the
    /// history; returns its exit status.
    func runJob() -> ExitStatus

    /// Records in `window` the tool and the root the job acted on, where the revert acts.
    func locate(_ window: inout ConfirmWindow)

    /// The packages the tool has half-way in `administrativeDirectory` (a run's recorded
    /// database), which the run's undoability follows; empty for a tool without that notion.
    func halfWay(in administrativeDirectory: String) -> [String: HalfWayPackage]
}

extension ArmedJob {
    /// The kind's name (`apt`, `dnf`), as in `installtop TOOL revert RUN` and the window's `tool`.
    var tool: String { Kind.tool }
}
