/// What arms a package job (Documentation/COMMIT-CONFIRMED.md): how long its run waits for a
/// confirmation after the job before it is undone, and the checks that judge the host's health
/// before and after it. Carried on the job (`PackageJob.confirm`), so that an engine given it
/// (the board's `U`, `installtop apt upgrade --hosts … --confirm`) arms the run it records.
public struct ConfirmRequest: Sendable, Hashable {
    /// The window's length, counted from the end of the job and its checks.
    public var seconds: Double
    /// The operator's own checks, each run with `/bin/sh -c`.
    public var checks: [String]
    /// A folder whose executables are checks too; `nil`: `/etc/installtop/confirm.d`.
    public var checksDirectory: String?
    /// Whether a regressed check reverts at once rather than at the deadline.
    public var revertOnRegression: Bool

    public init(seconds: Double, checks: [String] = [], checksDirectory: String? = nil, revertOnRegression: Bool = false) {
        self.seconds = seconds
        self.checks = checks
        self.checksDirectory = checksDirectory
        self.revertOnRegression = revertOnRegression
    }

    /// `5m`, `1h30m`, `45s`: the window as the operator would write it.
    public var durationText: String {
        let whole = Int(seconds.rounded())
        let hours = whole / 3600, minutes = whole % 3600 / 60, rest = whole % 60
        var text = ""
        if hours > 0 { text += "\(hours)h" }
        if minutes > 0 { text += "\(minutes)m" }
        if rest > 0 || text.isEmpty { text += "\(rest)s" }
        return text
    }
}
