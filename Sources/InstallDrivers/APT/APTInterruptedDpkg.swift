import InstallEngine

/// A root where dpkg was cut off and nobody finished (installtop killed with apt-get and dpkg:
/// no forced stop ran), as `installtop apt repair RUN` finds and finishes it. apt plans nothing
/// there ("E: dpkg was interrupted, you must manually run 'dpkg --configure -a'"), so a reinstall
/// must wait for it.
public enum APTInterruptedDpkg {
    /// The packages dpkg left half-way in the root (half-installed, unpacked, half-configured,
    /// reinstall-required, triggers pending), with their states, by name; empty when none.
    public static func halfWay(in environment: APTEnvironment) -> [String: APTPackageState] {
        APTPackageState.query(administrativeDirectory: environment.administrativeDirectory).filter(\.value.isHalfWay)
    }

    /// Finishes it with the forced stop's repair (`dpkg --configure -a`, then `apt-get -f
    /// install`, then the same with `--reinstall` of what is still half-installed, stopping at
    /// the first step after which `dpkg --audit` and `apt-get check` are clean): each line it
    /// says (the steps, their output, the checks, the verdict) given to `line`. Blocks.
    /// - Returns: whether the root is consistent now, and the verdict (`repaired: dpkg --audit
    ///   is clean, apt-get check passes`, or `dpkg is left broken: run `FIX` to repair it; WHY`).
    public static func finish(in environment: APTEnvironment, aptGet: String = "/usr/bin/apt-get",
                              line: @escaping @Sendable (String) -> Void) -> (repaired: Bool, verdict: String) {
        let outcome = APTRepair(environment: environment, aptGet: aptGet) { report in
            if case .output(_, let text) = report { line(text) }
        }.afterForcedStop()
        return (!outcome.leftBroken, outcome.verdict)
    }

    /// `dpkg is left unfinished (lab-k2 half-configured at 1.0 (iF)): once the cause is fixed,
    /// run `dpkg … --configure -a`, then `APT_CONFIG=… apt-get -f install``: what the operator
    /// runs once the finishing failed; `nil` when dpkg's audit is clean.
    public static func leftUnfinished(in environment: APTEnvironment, aptGet: String = "/usr/bin/apt-get") -> String? {
        APTRepair(environment: environment, aptGet: aptGet) { _ in }.leftUnfinished()
    }
}
