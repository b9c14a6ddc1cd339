#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A commit-confirmed run's window (the `confirmWindow` table): until when it waits for a
/// confirmation, what it found after its job, and how it ended.
public struct ConfirmWindow: Sendable, Hashable {
    /// The job run it belongs to.
    public var run: Int64
    public var state: ConfirmWindowState
    public var armedAt: Date
    /// When the run is undone without a confirmation; moved by an extension.
    public var deadline: Date
    /// Whether a regressed check reverts at once rather than at the deadline.
    public var revertOnRegression: Bool
    /// The checks that were healthier before the job than after it.
    public var regressions: [HealthRegression]
    /// When it was confirmed, or its revert claimed or ended; `nil` while armed.
    public var decidedAt: Date?
    /// Why it was reverted (or could not be), or who confirmed it; `nil` while armed.
    public var reason: String?
    /// The undo's run, once a revert ran one.
    public var revertRun: Int64?
    /// The package tool whose job it armed and whose undo reverts it: `apt` or `dnf`
    /// (`installtop TOOL revert RUN`). Windows recorded before dnf jobs could be armed are apt's.
    public var tool: String
    /// The apt root the job acted on, which the revert acts on too (`nil`: the system's, or
    /// `APT_CONFIG` as the revert finds it). `nil` for a dnf job.
    public var aptConfig: String?
    public var chroot: String?
    /// The root a dnf job acted on (`--installroot`; `/` for this system), where its revert
    /// waits for rpm's and dnf's locks and acts. `nil` for an apt job.
    public var installRoot: String?
    /// Who claimed the revert: while it is alive no one else reverts; once it is gone, a
    /// `reverting` window may be claimed again.
    public var reverter: ProcessIdentity?
    /// The services the job restarted or started (systemd's `InvocationID` of each active
    /// service differed after the job), sorted, which a revert restarts again; `nil` when they
    /// were not recorded (systemd did not run there, or the window is older than v11).
    public var restartedServices: [String]?
    /// The `--check` commands its checks ran (`/bin/sh -c` each) and its checks folder, which
    /// its checks run again with (`HistoryStore.recordChecksAgain`); `nil` in windows recorded
    /// before v14, whose checks cannot be run again.
    public var checks: [String]?
    public var checksDirectory: String?
    /// When its checks were last run again after the job (`checkRun`); `nil` when never.
    public var checkedAgainAt: Date?

    public init(run: Int64, state: ConfirmWindowState = .armed, armedAt: Date, deadline: Date, revertOnRegression: Bool = false,
                regressions: [HealthRegression] = [], decidedAt: Date? = nil, reason: String? = nil, revertRun: Int64? = nil,
                tool: String = "apt", aptConfig: String? = nil, chroot: String? = nil, installRoot: String? = nil,
                reverter: ProcessIdentity? = nil, restartedServices: [String]? = nil, checks: [String]? = nil,
                checksDirectory: String? = nil, checkedAgainAt: Date? = nil) {
        self.run = run
        self.state = state
        self.armedAt = armedAt
        self.deadline = deadline
        self.revertOnRegression = revertOnRegression
        self.regressions = regressions
        self.decidedAt = decidedAt
        self.reason = reason
        self.revertRun = revertRun
        self.tool = tool
        self.aptConfig = aptConfig
        self.chroot = chroot
        self.installRoot = installRoot
        self.reverter = reverter
        self.restartedServices = restartedServices
        self.checks = checks
        self.checksDirectory = checksDirectory
        self.checkedAgainAt = checkedAgainAt
    }
}
