import Dispatch
import EngineWire
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import RestartScan
import Synchronization
import InstallEngine

/// Reads a `PendingSnapshot` of an apt root the way an apt job sees it (`APTEnvironment`: its
/// `APT_CONFIG`, its chroot), without dpkg's lock: apt's simulations take none (Documentation/PACKAGE-FACTS.md),
/// so a snapshot can be read while another apt runs, and never makes one wait.
///
/// Four questions, three of them at once: `apt-get -s upgrade` (the packages and their
/// origins: apt's own account of the upgrade), `apt-get -s dist-upgrade` (what the upgrade
/// holds back for removals or new packages), and dpkg's selections (holds) followed by
/// `apt-cache policy` of every installed package (candidates, pins, phasing); then the lists'
/// age and a restart scan of the root.
public enum PendingSnapshotReader {
    /// The snapshot of the root `aptConfig` (or the system's) gives, inside `chroot` when one
    /// is named; never throws: what went wrong is the snapshot's `problem`.
    /// - Parameters:
    ///   - procRoot: where `/proc` is, for the restart scan (tests may name a recorded one).
    ///   - now: the snapshot's time.
    ///   - cancellation: kills its apt, apt-config and dpkg-query once cancelled; the snapshot
    ///     then says so as its problem, and is to be dropped.
    ///   - repairRun: the job run that last named any of the packages given (those dpkg left
    ///     half-way), whose `installtop apt repair RUN` the snapshot then names; `nil` (or no
    ///     run) names `apt-get install --reinstall` (`DpkgFinishCommand`).
    public static func read(aptConfig: String?, chroot: String? = nil, procRoot: String = "/proc", now: Date = Date(),
                            cancellation: CommandCancellation? = nil,
                            repairRun: (@Sendable ([String]) -> Int64?)? = nil) -> PendingSnapshot {
        // apt reads a missing APT_CONFIG as none and falls back to the system's root: this
        // would be another root's snapshot under the name of the one asked for.
        if let aptConfig, !FileManager.default.isReadableFile(atPath: chroot.map { APTEnvironment.path(aptConfig, under: $0) } ?? aptConfig) {
            return .failed("cannot read apt's configuration \(aptConfig)\(chroot.map { " in \($0)" } ?? "")", at: now)
        }
        let environment: APTEnvironment
        do {
            environment = try APTEnvironment.resolve(aptConfig: aptConfig, chroot: chroot, cancellation: cancellation)
        } catch {
            return .failed(cancellation?.isCancelled == true ? cancelledProblem : error.message, at: now)
        }
        return read(in: environment, procRoot: procRoot, now: now, cancellation: cancellation, repairRun: repairRun)
    }

    /// The problem of a snapshot whose computation was cancelled.
    public static let cancelledProblem = "the snapshot was cancelled"

    /// The snapshot of the root `environment` names.
    public static func read(in environment: APTEnvironment, procRoot: String = "/proc", now: Date = Date(),
                            cancellation: CommandCancellation? = nil,
                            repairRun: (@Sendable ([String]) -> Int64?)? = nil) -> PendingSnapshot {
        // apt's headings (`Installed:`) are read, so in its own words, untranslated.
        let variables = environment.commandEnvironment.merging(["LC_ALL": "C"]) { _, new in new }
        let run = { @Sendable (arguments: [String]) in
            SystemCommand.run(environment.command(arguments), environment: variables, cancellation: cancellation)
        }
        let results = Mutex<[Int: SystemCommand]>([:])
        let states = Mutex<[String: APTPackageState]>([:])
        // Three processes, two cores at most busy: the policy waits for dpkg's list first.
        DispatchQueue.concurrentPerform(iterations: 3) { question in
            let result: SystemCommand
            switch question {
            case 0: result = run([aptGet, "-s", "upgrade"])
            case 1: result = run([aptGet, "-s", "dist-upgrade"])
            default:
                let installed = APTPackageState.query(administrativeDirectory: environment.administrativeDirectory, cancellation: cancellation)
                states.withLock { $0 = installed }
                let names = installed.filter { $0.value.status.dropFirst().first == "i" }.keys.sorted()
                result = names.isEmpty ? SystemCommand(status: 0, stdout: "", stderr: "") : run([aptCache, "policy"] + names)
            }
            results.withLock { $0[question] = result }
        }
        let (upgrade, distUpgrade, policy) = results.withLock { ($0[0]!, $0[1]!, $0[2]!) }
        if cancellation?.isCancelled == true { return .failed(cancelledProblem, at: now) }
        for (command, result) in [("apt-get -s upgrade", upgrade), ("apt-get -s dist-upgrade", distUpgrade), ("apt-cache policy", policy)] {
            if result.failedToStart { return .failed("\(command) could not run: \(result.stderr)", at: now) }
            guard result.status == 0 else {
                return .failed(APTPlanError.aptMessage(result.stderr, stdout: result.stdout, otherwise: "\(command) exited with status \(result.status)"), at: now)
            }
        }
        let installed = states.withLock { $0 }
        let held = Set(installed.filter { $0.value.status.first == "h" }.keys)
        let (packages, heldBack) = assemble(upgrade: upgrade.stdout, distUpgrade: distUpgrade.stdout, policy: policy.stdout, held: held)
        let halfWayStates = installed.filter { $0.value.isHalfWay }
        let halfWay = halfWayStates.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.description)" }
        // A run is looked up only where dpkg --configure -a would not do.
        let needsArchive = halfWayStates.filter { !$0.value.finishesWithConfigure }.keys.sorted()
        let repairing = needsArchive.isEmpty ? nil : repairRun?(needsArchive)
        let finish = DpkgFinishCommand.text(for: halfWayStates, run: repairing, aptConfig: environment.aptConfig)
        return PendingSnapshot(computedAt: now, packages: packages, heldBack: heldBack, notFullyInstalled: halfWay, finishCommand: finish,
                               listsUpdatedAt: environment.lists.flatMap(newestList(in:)),
                               restarts: RestartScanner(procRoot: procRoot, root: environment.root).scan())
    }

    /// The pending and held-back packages out of apt's outputs (run with `LC_ALL=C`) and the
    /// packages dpkg holds.
    ///
    /// A package is held back when apt's policy knows a newer version than the installed one
    /// and `upgrade` does not take it. Its reason, first that applies: dpkg holds it; its
    /// candidate is the installed version (pinned); the candidate is phased; `dist-upgrade`
    /// would take it, removing packages or installing new ones; else apt keeps it back.
    public static func assemble(upgrade: String, distUpgrade: String, policy: String, held: Set<String>)
        -> (packages: [PendingPackage], heldBack: [HeldBackPackage]) {
        let packages = APTSimulation.pendingPackages(from: upgrade)
        let upgraded = Set(packages.map(\.name))
        let whole = APTSimulation.plan(from: distUpgrade)
        let wholeUpgrades = Set(whole.filter { $0.action == .upgrade }.map(\.package))
        let removals = whole.filter(\.isRemoval).map(\.package)
        let newPackages = whole.filter { $0.action == .install }.map(\.package)
        var heldBack: [HeldBackPackage] = []
        for entry in APTPolicy.entries(from: policy).values.sorted(by: { $0.name < $1.name }) where !upgraded.contains(entry.name) {
            guard let installed = entry.installed else { continue }
            if entry.isPinned, let newest = entry.newest {
                heldBack.append(HeldBackPackage(name: entry.name, installedVersion: installed, availableVersion: newest, reason: .pinned))
                continue
            }
            guard entry.isUpgradable, let candidate = entry.candidate else { continue }
            let reason: HeldBackReason
            if held.contains(entry.name) {
                reason = .held
            } else if let phased = entry.candidatePhasedPercentage {
                reason = .phased(percentage: phased)
            } else if wholeUpgrades.contains(entry.name), !removals.isEmpty {
                reason = .wouldRemove(removals)
            } else if wholeUpgrades.contains(entry.name), !newPackages.isEmpty {
                reason = .needsNewPackages(newPackages)
            } else {
                reason = .keptBack
            }
            heldBack.append(HeldBackPackage(name: entry.name, installedVersion: installed, availableVersion: candidate, reason: reason))
        }
        return (packages, heldBack)
    }

    /// When apt last wrote one of its lists: the newest status change (`ctime`) among the
    /// files of the lists folder, `nil` when it holds none (apt never updated) or cannot be
    /// read. Not the modification time, which apt sets to the server's `Last-Modified`; a
    /// `file:` source's list is a symbolic link, whose own time counts. An update that found
    /// every list unchanged writes none, so the age is that of the last change apt fetched.
    /// Its `partial/` and `auxfiles/` folders and `lock` are no lists.
    static func newestList(in folder: String) -> Date? {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return nil }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        return names.filter { $0 != "lock" }.compactMap { name -> Date? in
            var status = stat()
            guard lstat(base + name, &status) == 0, (status.st_mode & S_IFMT) != S_IFDIR else { return nil }
            return Date(timeIntervalSince1970: Double(status.st_ctim.tv_sec) + Double(status.st_ctim.tv_nsec) / 1e9)
        }.max()
    }

    static let aptGet = "/usr/bin/apt-get"
    static let aptCache = "/usr/bin/apt-cache"
}
