import InstallDrivers
import InstallEngine

/// Why a job cannot be armed (`--confirm`): its revert could not be planned, so a deadline
/// would promise what it cannot keep. Decided from the plan and dpkg's database before anything
/// runs (Documentation/COMMIT-CONFIRMED.md).
enum ArmingRefusal {
    /// Package name prefixes that take effect only after a reboot (a kernel, microcode): the
    /// checks after the job cannot see them work or fail.
    static let rebootOnlyPrefixes = ["linux-image-", "linux-modules-", "intel-microcode", "amd64-microcode"]

    /// Why `changes` cannot be armed, one line a package; empty when they can.
    /// - Parameters:
    ///   - installed: dpkg's state of each package now.
    ///   - hasFileList: whether dpkg has the list of a package's files (`info/NAME.list`), without
    ///     which its installed version cannot be rebuilt for keeping.
    static func reasons(_ changes: [PackageChange], installed: [String: APTPackageState], hasFileList: (String) -> Bool) -> [String] {
        changes.compactMap { change in
            if change.action == .install || change.action == .reinstall { return nil }
            if change.action != .upgrade && change.essential {
                return "\(change.package) is Essential: its removal cannot be armed (the revert itself may need it)"
            }
            let state = installed[change.package] ?? .notInstalled
            guard state.status == "ii" else {
                return "\(change.package) cannot be kept for the revert: dpkg has it \(state.description), not installed and configured"
            }
            guard hasFileList(change.package) else {
                return "\(change.package) \(state.version) cannot be kept for the revert: dpkg has no list of its files (info/\(change.package).list)"
            }
            return nil
        }
    }

    /// The packages of `changes` that take effect only after a reboot.
    static func rebootOnly(_ changes: [PackageChange]) -> [String] {
        changes.map(\.package).filter { name in rebootOnlyPrefixes.contains { name.hasPrefix($0) } }
    }
}
