import InstallEngine

/// The command that finishes what dpkg left half-way in a root, in the words installtop prints
/// wherever such packages are named (`pending`, a settled run's rows, `history --jobs`, an
/// undo's refusal): the one that works for every state left, never one that exits 0 and leaves
/// a package as it was.
///
/// `dpkg --configure -a` finishes unpacked, half-configured and trigger-waiting packages; a
/// half-installed one, or one flagged reinstall-required (`iHR`), needs its archive again, which
/// `installtop apt repair RUN` fetches (at the version dpkg has, from the archive, apt's cache
/// or what installtop kept) when a run of it is known, and `apt-get install --reinstall` of it
/// otherwise, after `dpkg --configure -a` (apt plans nothing while dpkg's journal has entries).
public enum DpkgFinishCommand {
    /// The command for `states` (the packages of a root, any state; those not half-way are
    /// ignored); `nil` when none is half-way.
    /// - Parameters:
    ///   - run: the job run that left them (or last named them), for `installtop apt repair
    ///     RUN`; `nil` when none is known.
    ///   - aptConfig: the root's `APT_CONFIG` when it is not the system's, put before `apt-get`.
    public static func text(for states: [String: APTPackageState], run: Int64? = nil, aptConfig: String? = nil) -> String? {
        let halfWay = states.filter { $0.value.isHalfWay }
        guard !halfWay.isEmpty else { return nil }
        let reinstall = halfWay.filter { !$0.value.finishesWithConfigure }.keys.sorted()
        if reinstall.isEmpty { return "dpkg --configure -a" }
        if let run { return "installtop apt repair \(run)" }
        let prefix = aptConfig.map { "APT_CONFIG=\(ShellQuoting.word($0)) " } ?? ""
        return "dpkg --configure -a, then \(prefix)apt-get install --reinstall \(reinstall.joined(separator: " "))"
    }
}
