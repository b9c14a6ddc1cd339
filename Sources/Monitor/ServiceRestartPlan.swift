import InstallEngine
import RestartScan

/// What `R` asks about (rule 32): the services a restart job would restart, from one restart
/// scan, with those left out and the processes no service owns, as the question lists them.
/// The job restarts exactly `restart`, whatever a newer scan says by the time `y` is pressed.
public struct ServiceRestartPlan: Sendable, Hashable {
    /// The units the job restarts, one `systemctl restart UNIT` update each.
    public var restart: [String]
    /// Services the scan lists that are not restarted blindly (`RestartJobPlan.isLeftOutUnlessNamed`).
    public var leftOut: [String]
    /// Processes that belong to no service, session or container: listed, never killed.
    public var bare: [StaleProcess]
    /// On the grouped board, the host whose engine scanned and would run the job; the
    /// question names it.
    public var host: String?

    /// The plan for `advice`, as `installtop restart-services` without units makes it.
    public init(_ advice: RestartAdvice) {
        let selection = RestartJobPlan.select(advice)
        restart = selection.restart
        leftOut = selection.leftOut
        bare = advice.processes.filter { $0.owner == .bare }
    }
}
