#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import RestartScan

/// apt's end, the blocking part: the work `APTTranslator.end` decides on and `LineDriverRunner`
/// carries out, one piece at a time, with no lock held (the repairs run commands and wait for
/// processes).
extension APTTranslator {
    /// Carries out one piece of the end's work; what it says meanwhile goes through `say`.
    func perform(_ work: APTEndWork, say: @escaping (_ make: (inout APTRunState) -> [DriverReport]) -> Void) -> APTEndFinding {
        switch work {
        case .stopTheRest(let end, let placeFromApt):
            return stopTheRest(after: end, placeFromApt: placeFromApt)
        case .repairAfterKill(let kill):
            return .repaired(kill, repair(after: kill, say: say))
        case .letTheRestEnd(let graceful):
            letTheRestEnd(say: say)
            return .restEnded(graceful)
        case .repairAfterGracefulStop(let graceful):
            return .gracefulRepaired(graceful, finishAfterGracefulStop(graceful, say: say))
        case .checkLeftUnfinished:
            return .leftUnfinished(APTRepair(environment: plan.environment, aptGet: aptGet, say: { _ in }).leftUnfinished())
        case .readFinalStates(let forcedStop):
            return .finalStates(APTPackageState.query(administrativeDirectory: plan.environment.administrativeDirectory),
                                rebootList: Self.rebootList(at: plan.environment.rebootPackagesPath), forcedStop: forcedStop)
        }
    }

    /// After a forced stop (rule 25), as visible steps of the kill's target: dpkg's state right
    /// after the kill, then `APTRepair`'s `dpkg --configure -a`, `apt-get -f install` and
    /// checks. Every package is settled afterwards from dpkg's state then
    /// (`APTRunState.aptEnded`), told apart from the state the kill left.
    private func repair(after kill: APTKill, say: @escaping (_ make: (inout APTRunState) -> [DriverReport]) -> Void) -> APTForcedStop {
        let names = Self.names(of: kill.killed)
        let target = kill.target
        let repair = APTRepair(environment: plan.environment, aptGet: aptGet) { report in
            Self.sayRepair(report, on: target, say: say)
        }
        let said = kill.unexpected.map { end in
            "installtop: \(end.sentence), not by installtop: a forced stop; "
                + (names.isEmpty ? "nothing of the transaction was left running" : "killed what was left of the transaction: " + names)
        } ?? "installtop: killed \(names.isEmpty ? "apt-get" : "apt-get, " + names)"
        if let target {
            say { _ in [.update(index: target, .output(.stdout, said))] }
        } else if let unexpected = kill.unexpected {
            say { run in run.repairSaid(unexpected.sentence) }
        }
        // SIGKILL is not death: a dpkg still dying holds its database lock, and the repair
        // would find it locked.
        Self.waitUntilGone(kill.killed, timeout: .seconds(30))
        // What the kill left, before the repair changes it: results keep the two apart.
        let statesAfterKill = APTPackageState.query(administrativeDirectory: plan.environment.administrativeDirectory)
        if let target {
            let left = plan.changes.filter { !(statesAfterKill[$0.package] ?? .notInstalled).isUntouched(by: $0) }
                .map { "\($0.package) \((statesAfterKill[$0.package] ?? .notInstalled).description)" }
            if !left.isEmpty {
                say { _ in [.update(index: target, .output(.stdout, "installtop: right after the kill dpkg had " + left.joined(separator: ", ")))] }
            }
        }
        let repaired = repair.afterForcedStop()
        return APTForcedStop(cut: kill.cut, finishedBeforeKill: kill.finishedBeforeKill, statesAfterKill: statesAfterKill, repair: repaired,
                             cutBy: kill.unexpected.map { "a kill from outside (\($0.sentence))" } ?? APTForcedStop.abort)
    }

    /// apt-get ended by a signal, or dpkg did (`end`), with no forced stop of installtop's: kills
    /// what is left of the transaction (a dpkg whose apt-get died, the maintainer script of a
    /// dpkg that died, their children). Returns what was killed, and `end` with where dpkg was:
    /// the script still running when one was, else the package dpkg had half-installed, else
    /// apt's last phase of the package it was on (`placeFromApt`).
    private func stopTheRest(after end: APTUnexpectedEnd, placeFromApt: String?) -> APTEndFinding {
        let remains = findRemains()
        remains.kill()
        var end = end
        if let script = remains.script {
            end.place = APTUnexpectedEnd.during(script: script.name, of: script.package)
        } else if let package = Self.halfInstalledOne(of: plan) {
            // No script ran: dpkg marks a package half-installed while it unpacks (or removes)
            // its files. apt's last phase may lag behind dpkg's (its status line unread when
            // it died), dpkg's own record of it does not.
            end.place = APTUnexpectedEnd.whileDpkg(package.isRemoval ? .removing : .unpacking, package.package)
        } else {
            end.place = placeFromApt
        }
        return .restStopped(killed: remains.members, end: end)
    }

    /// What is left of the transaction now, found by its mark.
    private func findRemains() -> APTTransactionRemains {
        (transaction?.kind.marker ?? marker).map(APTTransactionRemains.find(marker:)) ?? APTTransactionRemains()
    }

    /// apt-get ended on the stop's SIGINT outside a dpkg run (between two, or in its
    /// `DPkg::Post-Invoke` hooks, where apt does not catch it): what it had started outside its
    /// process group (a dpkg in a session of its own, should one have begun) is let end on its
    /// own, as a graceful stop lets running work finish, for up to `remainsGrace`; what still
    /// runs then is killed, and said. (Its process group ended with it, killed at its reap.)
    private func letTheRestEnd(say: (_ make: (inout APTRunState) -> [DriverReport]) -> Void) {
        let remains = findRemains()
        guard !remains.members.isEmpty else { return }
        say { run in
            run.repairSaid("waiting for what apt-get started to end: " + Self.names(of: remains.members))
        }
        Self.waitUntilGone(remains.members, timeout: Self.remainsGrace)
        let left = findRemains()
        guard !left.members.isEmpty else { return }
        left.kill()
        say { run in
            run.repairSaid("killed what apt-get had started, still running after \(Self.remainsGrace): " + Self.names(of: left.members))
        }
        Self.waitUntilGone(left.members, timeout: .seconds(30))
    }

    /// What the job says when apt-get ended on the stop's SIGINT (`letTheRestEnd`): apt catches
    /// it only while dpkg runs, and the engine ends what is left of apt-get's process group
    /// with it, as Ctrl-C in a terminal would.
    static let endedOnTheStop = "apt-get ended on the stop's SIGINT outside a dpkg run, as Ctrl-C ends it "
        + "(a DPkg::Post-Invoke hook running then, such as needrestart's, ended with it)"

    /// How long what apt-get started is let run on after apt-get ended on the stop: a
    /// `DPkg::Post-Invoke` hook such as needrestart's scan takes seconds.
    static let remainsGrace: Duration = .seconds(60)

    /// `needrestart (4242), sh (4243)`.
    private static func names(of members: [ProcessTree.Member]) -> String {
        members.map { "\($0.name) (\($0.pid))" }.joined(separator: ", ")
    }

    /// The one package of `plan` dpkg has half-installed (`H`) right now, when exactly one is:
    /// the package whose files dpkg was writing or removing when it was cut.
    private static func halfInstalledOne(of plan: APTPlan) -> PackageChange? {
        let states = APTPackageState.query(administrativeDirectory: plan.environment.administrativeDirectory)
        let half = plan.changes.filter { states[$0.package]?.status.dropFirst().first == "H" }
        return half.count == 1 ? half.first : nil
    }

    /// After a graceful stop, on its target: what the stop left to dpkg, by
    /// `APTRepair.afterGracefulStop`. `aptEnd` (apt-get ended on the stop's SIGINT) is said among
    /// that package's lines, and `APTRunState.gracefulStopEnded` says it in its verdict.
    private func finishAfterGracefulStop(_ graceful: APTGracefulEnd,
                                         say: @escaping (_ make: (inout APTRunState) -> [DriverReport]) -> Void) -> APTRepairOutcome {
        if let aptEnd = graceful.aptEnd, let target = graceful.target {
            // Among the package's lines, before the steps that follow it, as a repair's are.
            say { _ in [.update(index: target, .output(.stdout, "installtop: " + aptEnd))] }
        }
        let target = graceful.target
        let repair = APTRepair(environment: plan.environment, aptGet: aptGet) { report in
            Self.sayRepair(report, on: target, say: say)
        }
        return repair.afterGracefulStop(plan: plan.changes)
    }

    /// One thing a repair said, on update `index`. Its status texts, each step and the
    /// outcome, are the job's too: a repair acts on the whole root, also when the kill landed
    /// where no package was in flight (in trigger processing, between dpkg runs), and its
    /// outcome stays the job's last word.
    private static func sayRepair(_ report: UpdateReport, on index: Int?, say: (_ make: (inout APTRunState) -> [DriverReport]) -> Void) {
        say { run in
            var reports: [DriverReport] = index.map { [.update(index: $0, report)] } ?? []
            if case .message(let text) = report { reports += run.repairSaid(text) }
            return reports
        }
    }

    /// Blocks until every one of `members` has exited (no such process, or a zombie whose
    /// locks and files are closed), or `timeout` passes.
    private static func waitUntilGone(_ members: [ProcessTree.Member], timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        func alive(_ pid: pid_t) -> Bool {
            guard Glibc.kill(pid, 0) == 0 || errno == EPERM else { return false }
            guard let stat = ProcFS().stat(of: pid) else { return false }
            return stat.state != "Z"
        }
        while members.contains(where: { alive($0.pid) }), ContinuousClock.now < deadline {
            usleep(10_000)
        }
    }
}
