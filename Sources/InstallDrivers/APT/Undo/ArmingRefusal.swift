#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// Why a job cannot be armed (`--confirm`): its revert could not be planned, so a deadline
/// would promise what it cannot keep. Decided from the plan and dpkg's database before anything
/// runs (Documentation/COMMIT-CONFIRMED.md).
public enum ArmingRefusal {
    /// Why `changes` cannot be armed, one line a package; empty when they can.
    /// - Parameters:
    ///   - installed: dpkg's state of each package now.
    ///   - hasFileList: whether dpkg has the list of a package's files (`info/NAME.list`), without
    ///     which its installed version cannot be rebuilt for keeping.
    public static func reasons(_ changes: [PackageChange], installed: [String: APTPackageState], hasFileList: (String) -> Bool) -> [String] {
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

    /// The packages of `changes` that take effect only after a reboot
    /// (`PackageChange.rebootOnlyPrefixes`).
    public static func rebootOnly(_ changes: [PackageChange]) -> [String] {
        changes.filter(\.takesEffectOnlyAfterReboot).map(\.package)
    }

    /// Why `plan` cannot be armed, from dpkg's database in its root: its state of each package
    /// and its file lists (`NAME.list`, or `NAME:ARCH.list` for Multi-Arch: same), the folder
    /// listed once for the whole plan rather than once a package.
    public static func reasons(for plan: APTPlan) -> [String] {
        let administrativeDirectory = plan.environment.administrativeDirectory
        let installed = APTPackageState.query(administrativeDirectory: administrativeDirectory)
        let lists = Set(((try? FileManager.default.contentsOfDirectory(atPath: "\(administrativeDirectory)/info")) ?? [])
            .filter { $0.hasSuffix(".list") }.map { String($0.dropLast(".list".count).prefix { $0 != ":" }) })
        return reasons(plan.changes, installed: installed) { lists.contains($0) }
    }

    /// What is said of each of `packages` (`rebootOnly`'s, or another tool's) that takes
    /// effect only after a reboot.
    public static func rebootNotes(_ packages: [String]) -> [String] {
        packages.map(PackageChange.rebootOnlyNote)
    }
}
