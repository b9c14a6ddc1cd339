import InstallDrivers
import InstallEngine
import InstallHistory

/// The repair of one job run made ready to run (`installtop apt repair RUN`,
/// Documentation/APT-JOBS.md): each package of the run that dpkg has, checked now: left half-way
/// by dpkg, or with files that differ from what dpkg recorded (`dpkg --verify`, conffiles aside:
/// an operator's edit is no damage). Each damaged one is reinstalled at the version dpkg has,
/// from where that exact build can still be had (`APTReinstallSource`): an archive, apt's cache,
/// or a version installtop kept for an undo. After the job, `finish()` removes what was staged,
/// marks automatic again what apt had marked so, and checks the files once more.
struct APTRepairPreparation {
    /// A package of the run that needs reinstalling, and how apt can have it again.
    struct Damage: Hashable {
        let package: String
        let state: APTPackageState
        /// What is wrong: `half-installed at 2.0 (iHR)`, `1 file differs from what dpkg recorded (/a)`.
        let finding: String
        /// Where apt can have it again; `nil` when nothing can reinstall it.
        let source: APTReinstallSource?
        /// apt's word for it (`P=V`, or a .deb's path as apt sees it); `nil` with no source.
        let argument: String?
    }

    let run: JobRun
    /// Every damaged package of the run, in the run's order.
    let damaged: [Damage]
    let environment: APTEnvironment
    let staging: APTUndoStaging
    /// What apt had marked automatically installed before the repair.
    let automaticBefore: Set<String>

    /// The reinstall of every damaged package apt can have again; `nil` when there is none.
    var request: PackageRequest? {
        let arguments = damaged.compactMap(\.argument)
        return arguments.isEmpty ? nil : .reinstall(packages: arguments, repairing: Int(run.id))
    }

    /// The damaged packages nothing can reinstall.
    var unrepairable: [Damage] { damaged.filter { $0.argument == nil } }

    /// Checks `run` against dpkg's database in `environment`'s root, with the kept versions of
    /// `history` as a last source.
    /// - Throws: `UndoRefusal` (nothing changed): a kept .deb that cannot be put in the chroot.
    static func prepare(run: JobRun, environment: APTEnvironment, history: HistoryOptions) throws(UndoRefusal) -> APTRepairPreparation {
        let states = APTPackageState.query(administrativeDirectory: environment.administrativeDirectory)
        let kept = keptVersions(history: history)
        var damaged: [Damage] = []
        var names = Set<String>()
        for package in run.packages where names.insert(package.name).inserted {
            guard let state = states[package.name], state.isPresent else { continue }
            let finding: String
            if state.isHalfWay {
                finding = "dpkg has it \(state.description)"
            } else {
                let files = DpkgVerification.differingFiles(of: package.name, administrativeDirectory: environment.administrativeDirectory)
                guard !files.isEmpty else { continue }
                finding = DpkgVerification.phrase(files)
            }
            let candidates = kept.filter { $0.package == package.name && $0.version == state.version }.compactMap(\.file)
            let source = APTReinstallSource.find(for: package.name, in: environment, candidates: candidates)
            damaged.append(Damage(package: package.name, state: state, finding: finding, source: source, argument: source?.aptArgument))
        }
        // Kept .debs are named by their path here; apt in a chroot sees them once staged in it.
        let keptFiles = damaged.compactMap { damage -> String? in
            if case .keptFile(let path)? = damage.source { return path }
            return nil
        }
        let (staging, named) = try APTUndoStaging.stage(keptFiles, as: "repair-\(run.id)", chroot: environment.chroot)
        let staged = Dictionary(zip(keptFiles, named), uniquingKeysWith: { first, _ in first })
        damaged = damaged.map { damage in
            guard case .keptFile(let path)? = damage.source else { return damage }
            return Damage(package: damage.package, state: damage.state, finding: damage.finding, source: damage.source, argument: staged[path])
        }
        return APTRepairPreparation(run: run, damaged: damaged, environment: environment, staging: staging,
                                    automaticBefore: damaged.isEmpty ? [] : APTAutoMarks.automatic(in: environment))
    }

    /// What was found, a line a package: `lab-k2 2.0: 1 file differs from what dpkg recorded
    /// (/usr/share/lab-k2/data); reinstall from the archive`; said before the plan.
    var findings: [String] {
        damaged.map { damage in
            let from: String
            switch damage.source {
            case nil:
                from = "nothing can reinstall it: no archive apt knows offers \(damage.state.version), and neither apt's cache nor "
                    + "installtop's kept versions hold that build (a .deb of it reinstalls it: apt install --reinstall ./FILE.deb)"
            case .archive?: from = "reinstall from the archive"
            case .archiveCache(let path)?: from = "reinstall from apt's cache (\(path))"
            case .keptFile(let path)?: from = "reinstall from the version installtop kept (\(path))"
            }
            return "\(damage.package) \(damage.state.version): \(damage.finding); \(from)"
        }
    }

    /// After the repair's job, whatever its end: removes what was staged, marks automatic again
    /// what apt had marked so (a local .deb makes it manual), and checks each package it was to
    /// reinstall again.
    /// - Returns: each package still not repaired, and what could not be done besides (a
    ///   warning: the packages are repaired all the same), a line each.
    func finish() -> (notRepaired: [String], warnings: [String]) {
        staging.remove()
        let reinstalled = damaged.filter { $0.argument != nil }
        var warnings: [String] = []
        if let failure = APTAutoMarks.markAutomatic(reinstalled.map(\.package).filter(automaticBefore.contains), in: environment) {
            warnings.append("packages installed automatically are now marked manual: \(failure)")
        }
        let states = APTPackageState.query(administrativeDirectory: environment.administrativeDirectory)
        let notRepaired = reinstalled.compactMap { damage -> String? in
            let state = states[damage.package] ?? .notInstalled
            if state.isHalfWay || !state.isPresent { return "\(damage.package) is still not repaired: dpkg has it \(state.description)" }
            let files = DpkgVerification.differingFiles(of: damage.package, administrativeDirectory: environment.administrativeDirectory)
            return files.isEmpty ? nil : "\(damage.package) is still not repaired: \(DpkgVerification.phrase(files))"
        } + unrepairable.map { "\($0.package) was not repaired: nothing can reinstall it" }
        return (notRepaired, warnings)
    }

    /// Every kept version the history still holds a file of; none when it cannot be read.
    private static func keptVersions(history: HistoryOptions) -> [KeptVersionRecord] {
        guard let store = try? HistoryStore(path: history.historyDb ?? HistoryStore.defaultPath(), createIfMissing: false),
              let kept = try? store.unprunedKeptVersions() else { return [] }
        return kept.map(\.record).filter { $0.file != nil }
    }
}
