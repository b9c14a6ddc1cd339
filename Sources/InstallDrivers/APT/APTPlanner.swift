#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import RestartScan
import Synchronization
import Glibc
import Dispatch

/// Asks apt what an apt job will do, before anything runs (Documentation/APT-JOBS.md): the
/// configuration and root, dpkg's lock, the simulation (the updates, in apt's order), which of
/// them are Essential, and the download list (their sizes). Nothing here changes the system.
public enum APTPlanner {
    /// The plan of `job`. The simulation and the download list are two resolutions of the same
    /// request; they run at once, so the plan takes about as long as the slower of them.
    /// - Parameter aptGet: the apt-get to ask (tests may name another).
    /// - Throws: `APTPlanError`: apt missing, the chroot not enterable, dpkg's database locked
    ///   or not ours to lock, or apt's refusal (unknown package, broken dependencies) in apt's
    ///   own words.
    public static func plan(_ job: PackageJob, aptGet: String = "/usr/bin/apt-get") throws(APTPlanError) -> APTPlan {
        let environment = try environment(of: job)
        let commandLine = APTCommandLine(request: job.request, aptGet: aptGet)
        // Whether anything is fetched is known only from the simulation; asking anyway costs a
        // second process on another core, and a removal's empty list is thrown away.
        let list = Mutex<SystemCommand?>(nil)
        let listed = DispatchSemaphore(value: 0)
        EngineThread.detach(named: "installtop-list") {
            let result = SystemCommand.run(environment.command(commandLine.downloadList), environment: environment.commandEnvironment)
            list.withLock { $0 = result }
            listed.signal()
        }
        let simulation = SystemCommand.run(environment.command(commandLine.simulation), environment: environment.commandEnvironment)
        listed.wait()
        if simulation.failedToStart { throw APTPlanError(.aptMissing, "apt-get is not installed here (\(simulation.stderr))") }
        guard simulation.status == 0 else {
            throw APTPlanError(.aptRefused, APTPlanError.aptMessage(simulation.stderr, stdout: simulation.stdout, otherwise: "apt-get exited with status \(simulation.status)"))
        }
        let changes = APTEssentialPackages.marking(
            APTSimulation.plan(from: simulation.stdout), administrativeDirectory: environment.administrativeDirectory)
        var downloads: [APTDownload] = []
        if changes.contains(where: { !$0.isRemoval }), let list = list.withLock({ $0 }) {
            guard list.status == 0 else {
                throw APTPlanError(.aptRefused, APTPlanError.aptMessage(list.stderr, stdout: list.stdout, otherwise: "apt-get --print-uris exited with status \(list.status)"))
            }
            downloads = APTDownload.list(from: list.stdout)
        }
        return APTPlan(job: job, environment: environment, changes: changes, downloads: downloads,
                       keptSize: keptSize(of: job.request, in: environment))
    }

    /// The bytes of the kept .debs an undo reads (named as apt sees them: inside the chroot
    /// when there is one); 0 for any other request.
    static func keptSize(of request: PackageRequest, in environment: APTEnvironment) -> Int64 {
        guard case .undo(_, let debs, _) = request else { return 0 }
        let root = environment.chroot.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? ""
        return debs.reduce(0) { total, deb in
            var file = stat()
            return total + (stat(root + deb, &file) == 0 ? Int64(file.st_size) : 0)
        }
    }

    /// Where `job` acts, once dpkg's lock is seen free: what a transaction that makes its own
    /// plan (`APTHookTransaction`) needs first.
    /// - Throws: `APTPlanError`, as `plan` does before it asks apt for the plan.
    public static func environment(of job: PackageJob) throws(APTPlanError) -> APTEnvironment {
        let environment = try APTEnvironment.resolve(aptConfig: job.aptConfig, chroot: job.chroot)
        // A simulation takes no lock (Documentation/PACKAGE-FACTS.md): look at it ourselves, so a plan is never
        // promised while another apt or dpkg holds the database.
        try checkLock(of: environment)
        return environment
    }

    /// Why `job`'s transaction ended before its plan hook, having changed nothing, with
    /// `outcome` and these words: the simulation's refusal, as `plan` says it (apt's list of
    /// unmet dependencies included), or, when the simulation succeeds (a download failed),
    /// the transaction's own error lines.
    public static func refusal(of job: PackageJob, outcome: UpdateRunOutcome, stdout: String, stderr: String,
                               aptGet: String = "/usr/bin/apt-get") -> APTPlanError {
        do {
            _ = try plan(job, aptGet: aptGet)
        } catch {
            return error
        }
        return APTPlanError(.aptRefused, APTPlanError.aptMessage(stderr, stdout: stdout, otherwise: "apt-get \(outcome.summary)"))
    }

    /// Refuses when dpkg's front-end lock is held or cannot be opened by this user.
    static func checkLock(of environment: APTEnvironment) throws(APTPlanError) {
        switch DpkgLock.state(administrativeDirectory: environment.administrativeDirectory) {
        case .free:
            return
        case .held(let pid):
            let holder = pid > 0 ? " by process \(pid)\(processName(pid).map { " (\($0))" } ?? "")" : ""
            throw APTPlanError(.locked, """
                E: Could not get lock \(environment.administrativeDirectory)/lock-frontend. It is held\(holder)
                   another apt or dpkg is running: wait for it to finish, then try again
                """)
        case .unreadable(let cause):
            throw APTPlanError(.noPermission, """
                E: Could not open lock file \(environment.administrativeDirectory)/lock-frontend - open (\(cause))
                   changing packages needs root: run installtop as root (sudo)
                """)
        }
    }

    private static func processName(_ pid: Int32) -> String? {
        let name = ProcFS().command(of: pid)
        return name?.isEmpty == false ? name : nil
    }
}
