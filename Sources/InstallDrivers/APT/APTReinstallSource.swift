#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine

/// Where the version of a package that dpkg has installed can be had again, for a reinstall
/// that puts its files back (`installtop apt repair RUN`), in the order apt would trust it.
///
/// A bare name is never enough: `apt-get install --reinstall P` takes P's candidate, which is an
/// upgrade once the archive has moved on, and a version no archive offers any more is silently
/// skipped by apt ("Reinstallation of P is not possible, it cannot be downloaded", exit 0,
/// nothing done).
public enum APTReinstallSource: Sendable, Hashable {
    /// An archive apt knows offers exactly that version: `P=V`.
    case archive(package: String, version: String)
    /// apt's archive cache holds that build: the .deb's path as apt sees it (inside a chroot).
    case archiveCache(path: String)
    /// One of the caller's candidates is that build (a version installtop kept for an undo),
    /// named as given: in a chroot the caller makes it visible to apt.
    case keptFile(path: String)

    /// What apt is asked for: `P=V`, or the .deb's path.
    public var aptArgument: String {
        switch self {
        case .archive(let package, let version): "\(package)=\(version)"
        case .archiveCache(let path), .keptFile(let path): path
        }
    }

    /// Where `package` can be had again at the version dpkg has, exactly that build (the same
    /// control and dpkg's recorded checksums) for a .deb; `nil` when dpkg does not have it or
    /// none of these has it.
    /// - Parameters:
    ///   - package: the package's name as dpkg knows it.
    ///   - environment: the root: its apt configuration, dpkg database and archive cache.
    ///   - candidates: local .debs that may be that build (each is checked, not trusted).
    public static func find(for package: String, in environment: APTEnvironment, candidates: [String],
                            aptCache: String = "/usr/bin/apt-cache") -> APTReinstallSource? {
        guard let installed = APTInstalledPackage.readAll([package], administrativeDirectory: environment.administrativeDirectory,
                                                          dpkgQuery: "/usr/bin/dpkg-query").first(where: { $0.name == package })
        else { return nil }
        if isOffered(installed, in: environment, aptCache: aptCache) { return .archive(package: installed.name, version: installed.version) }
        let keeper = APTVersionKeeper(environment: environment)
        if let cached = keeper.cachedDeb(of: installed) { return .archiveCache(path: environment.pathInsideChroot(cached)) }
        return candidates.first { keeper.isSameBuild($0, as: installed) }.map { .keptFile(path: $0) }
    }

    /// Whether an archive apt knows offers exactly `installed`'s version: apt's record of it
    /// has a `Filename` (a version known only from dpkg's status has none).
    static func isOffered(_ installed: APTInstalledPackage, in environment: APTEnvironment, aptCache: String) -> Bool {
        let shown = SystemCommand.run(environment.command([aptCache, "show", "--no-all-versions", "\(installed.name)=\(installed.version)"]),
                                      environment: environment.commandEnvironment.merging(["LC_ALL": "C"]) { $1 })
        return shown.status == 0 && shown.stdout.split(separator: "\n").contains { $0.hasPrefix("Filename: ") }
    }
}
