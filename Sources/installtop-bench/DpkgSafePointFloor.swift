import Foundation
import InstallDrivers

/// The least any executor pays for a safe point after every package (issue 32's speed goal),
/// measured on dpkg alone, without apt: the set's archives in the order apt acts with
/// `Immediate-Configure-All`, run two ways inside the chroot, each ended by the one
/// `dpkg --configure --pending` that runs the deferred triggers, as apt's last run does:
/// - one `dpkg --no-triggers --install X.deb` a package: one dpkg run a package is the fewest
///   that can stop between any two packages, since a dpkg run cannot be stopped between its
///   packages without leaving them unpacked and not configured;
/// - every archive in one `--unpack` run and one `--configure --pending`, as apt's default
///   options hand them to dpkg (the fewest runs, no safe point inside).
/// The difference is what a stop after every package costs in dpkg itself, whoever drives it.
struct DpkgSafePointFloor {
    /// Seconds of the one-run-a-package way and of the batched way.
    var perPackage: Double
    var batched: Double

    /// The cached archives of `packages`' installation in `chroot`, in the order apt unpacks
    /// them with `Immediate-Configure-All` (its simulation's `Inst` lines); nil (after saying
    /// why) when one is not in apt's cache.
    static func archives(installing packages: [String], in chroot: String) -> [String]? {
        let simulation = APTRealBenchmark.simulation(installing: packages, in: chroot)
        // Read as installtop reads its plan (`APTSimulation`); the cached file of an installed
        // version is NAME_VERSION_ARCH.deb, with an epoch's colon written %3a.
        var archives: [String] = []
        for change in APTSimulation.plan(from: simulation) {
            guard let version = change.newVersion, let arch = change.architecture else { continue }
            let path = "/var/cache/apt/archives/\(change.package)_\(version.replacingOccurrences(of: ":", with: "%3a"))_\(arch).deb"
            guard FileManager.default.fileExists(atPath: chroot + path) else {
                print("  the safe-point floor is skipped: \(path) is not in the chroot's apt cache")
                return nil
            }
            archives.append(path)
        }
        return archives.isEmpty ? nil : archives
    }

    /// Installs `archives` one way, returning its seconds, or nil when a dpkg run failed.
    static func install(_ archives: [String], onePerPackage: Bool, in chroot: String) -> Double? {
        let dpkg = ["/usr/sbin/chroot", chroot, "/usr/bin/dpkg"]
        let runs = onePerPackage
            ? archives.map { dpkg + ["--no-triggers", "--install", $0] }
            : [dpkg + ["--no-triggers", "--unpack"] + archives, dpkg + ["--no-triggers", "--configure", "--pending"]]
        var seconds = 0.0
        for run in runs + [dpkg + ["--configure", "--pending"]] {
            let result = APTRealBenchmark.spawn(run)
            guard result.status == 0 else { return nil }
            seconds += result.wall
        }
        return seconds
    }
}
