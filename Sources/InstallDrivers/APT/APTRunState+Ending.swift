import InstallEngine

/// apt's end, on `APTRunState`: every package settled from dpkg's final state once apt has
/// ended, and a graceful stop's end after what it left to dpkg was finished.
extension APTRunState {
    /// apt-get ended with `outcome` (and after a forced stop the repair ran): every package of
    /// the plan without a verdict yet is settled from dpkg's final state (`finalStates`: package
    /// → `ii 1.0`-like state and version, read after any repair), whatever apt said or did not
    /// say (rule 23):
    /// - a held verdict is apt's word, checked: a success dpkg does not show is failed, a
    ///   failure dpkg shows done succeeds with errors; the last success gets an error when apt
    ///   failed although no package did;
    /// - a configuration apt tries again at its end is dpkg's final state;
    /// - after a forced stop (`forcedStop`), the packages the kill cut, and the finished one the
    ///   repair was shown on, carry the repair's steps and outcome; a cut package says what the
    ///   kill left it as and what the repair left it as, and succeeds when the repair completed it;
    /// - a package apt never reported that dpkg shows done succeeds ("completed by the repair
    ///   after the forced stop" when dpkg did not show it done right after the kill); one dpkg
    ///   worked on but did not finish is aborted (after a stop) or failed, with its state.
    ///
    /// Packages dpkg never touched get nothing here: the engine ends them aborted, not started
    /// (after a stop), or failed, not reached. An empty `finalStates` is a database that could
    /// not be read: it then contradicts nothing apt said. `rebootList` is `reboot-required.pkgs`
    /// as apt left it: the reboots of the verdicts made here.
    mutating func aptEnded(_ outcome: UpdateRunOutcome, plan: APTPlan, finalStates: [String: APTPackageState],
                           rebootList: Set<String>, forcedStop: APTForcedStop? = nil) -> [DriverReport] {
        var reports: [DriverReport] = []
        if showsDownloadStatus {
            showsDownloadStatus = false
            reports.append(.jobMessage(nil))
        }
        // After the gate's refusal apt exits 100 for dpkg's errors about the archives it left.
        if case .exited(let status) = outcome, status != 0, let last = verdicts.last, !tracker.hasFailures, !gateRefused {
            reports.append(.update(index: last.index, .error("apt-get exited with status \(status)")))
        }
        let ending = APTEnding(plan: plan, finalStates: finalStates, forcedStop: forcedStop)
        let before = rebootListBefore
        let reboot = { (index: Int) in Self.listedReboot(plan.changes[index].package, in: rebootList, before: before) }
        for entry in verdicts.takeAll() {
            updates.finish(entry.index, ending.checked(entry.verdict, of: entry.index, rebootRequired: reboot(entry.index)), into: &reports)
        }
        if let forcedStop, let last = forcedStop.finishedBeforeKill {
            let verdict = ending.checked(last.verdict, of: last.index, rebootRequired: reboot(last.index))
            updates.finish(last.index, Self.verdict(
                verdict, repair: forcedStop.repair, after: "\(forcedStop.cutBy) cut apt after it (in trigger processing)"), into: &reports)
        }
        for (index, reason) in verdicts.takeAwaitingRetry() {
            let change = plan.changes[index]
            guard ending.isDone(index) else {
                updates.finish(index, .failed(reason), into: &reports)
                continue
            }
            // dpkg configured it again (apt's retry at its end, or the repair after a forced
            // stop): its result is dpkg's, the first attempt's error stays reported (succeeded
            // with errors).
            let said = ending.completedByRepair(index) ? ending.doneText(of: index) : "configured again: " + ending.doneText(of: index) + " at the end"
            reports.append(.update(index: index, .progress(percent: 100, message: APTPackagePhase.doneWord(for: change.action))))
            updates.finish(index, DriverVerdict(
                resultCode: .succeeded, reason: "\(said); the first attempt failed: \(reason)",
                rebootRequired: reboot(index)), into: &reports)
        }
        for index in forcedStop?.cut ?? [] {
            if ending.isDone(index), forcedStop?.repair.leftBroken == false {
                reports.append(.update(index: index, .progress(percent: 100, message: APTPackagePhase.doneWord(for: plan.changes[index].action))))
            }
            updates.finish(index, ending.cutVerdict(of: index, rebootRequired: reboot(index)), into: &reports)
        }
        let aborted = stopRequested || forcedStop != nil
        var exitStatus: Int32 = 0
        if case .exited(let status) = outcome { exitStatus = status }
        for (index, change) in plan.changes.enumerated() where !decided.contains(index) {
            let verdict: DriverVerdict
            if ending.isDone(index) {
                // A reinstall leaves no trace in dpkg's state: one apt never began after a stop
                // did not run.
                if change.action == .reinstall, aborted, !updates.hasStarted(index) { continue }
                // dpkg's final state says the package was done although apt did not say so (apt
                // prints no `Removed` line for a plain removal; the repair after a forced stop
                // completes packages apt never began).
                verdict = DriverVerdict(resultCode: .succeeded, reason: ending.doneText(of: index), rebootRequired: reboot(index))
            } else if ending.wasWorkedOn(index) {
                let reason = "apt did not finish it: " + ending.statesText(of: index)
                verdict = aborted
                    ? DriverVerdict(resultCode: .aborted, reason: reason, hResult: .operationCancelled)
                    : .failed(reason, code: exitStatus)
            } else {
                continue
            }
            decided.insert(index)
            start(index, into: &reports)
            if verdict.resultCode == .succeeded {
                reports.append(.update(index: index, .progress(percent: 100, message: APTPackagePhase.doneWord(for: change.action))))
            }
            updates.finish(index, verdict, into: &reports)
        }
        return reports
    }

    /// `verdict` with the repair that ran after it (`context` says why) in its reason; failed
    /// and `systemLeftBroken` when that left dpkg broken.
    static func verdict(_ verdict: DriverVerdict, repair: APTRepairOutcome, after context: String) -> DriverVerdict {
        var result = verdict
        result.reason = repair.reason(after: [verdict.reason, context].compactMap { $0 }.joined(separator: "; "))
        if repair.leftBroken {
            result.resultCode = .failed
            result.hResult = .systemLeftBroken
        }
        return result
    }

    /// A graceful stop's end: what the stop left to dpkg was finished (`repair`,
    /// `APTRepair.afterGracefulStop`) after the last package apt finished (`last`, its verdict
    /// held until now, when one did), whose result carries it. When it leaves apt's
    /// dependencies unmet with dpkg consistent (the stop came between two packages one of
    /// which needs the other at its own version), the verdict goes on the plan's packages
    /// `apt-get check` names that apt had not begun, ended aborted and `systemLeftBroken`: they
    /// are what is left unmet, and `last` is as the job asked. Otherwise (no such package in the
    /// plan, or dpkg itself not consistent) it goes on `last`, as after a forced stop. Without
    /// `last` the steps were the job's alone, and the packages are settled from dpkg's state
    /// when apt's end is (`aptEnded`).
    /// `aptEnd` says how apt-get ended when that is worth saying on `last` (it ended on the
    /// stop's SIGINT itself).
    mutating func gracefulStopEnded(last: (index: Int, verdict: DriverVerdict)?, repair: APTRepairOutcome, plan: APTPlan,
                                    aptEnd: String? = nil) -> [DriverReport] {
        let context = ["the job stopped after it, as asked", aptEnd].compactMap { $0 }.joined(separator: "; ")
        let unmet = repair.leftBroken && repair.dpkgConsistent
            ? repair.unmet.keys.compactMap { index(of: $0) }.filter { $0 != last?.index && !decided.contains($0) && !updates.hasStarted($0) }.sorted()
            : []
        var reports: [DriverReport] = []
        if let last {
            var lastVerdict = Self.verdict(last.verdict, repair: repair, after: context)
            if !unmet.isEmpty {
                lastVerdict = last.verdict
                lastVerdict.reason = repair.reason(after: [last.verdict.reason, context].compactMap { $0 }.joined(separator: "; "),
                                                   verdictOn: unmet.map { plan.changes[$0].package })
            }
            updates.finish(last.index, lastVerdict, into: &reports)
        }
        for index in unmet {
            decided.insert(index)
            start(index, into: &reports)
            updates.finish(index, DriverVerdict(
                resultCode: .aborted,
                reason: repair.verdict + "; not started: the stop came before it, and it is left with "
                    + (repair.unmet[plan.changes[index].package] ?? "unmet dependencies"),
                hResult: .systemLeftBroken), into: &reports)
        }
        return reports
    }

    /// For a verdict made from dpkg's final state, not from the package's end: true when it
    /// asked for a reboot (in `list`, not in the list `before` apt started), else no word on it
    /// (rule 17 decides, as it does for any driver that cannot tell).
    private static func listedReboot(_ package: String, in list: Set<String>, before: Set<String>) -> Bool? {
        list.contains(package) && !before.contains(package) ? true : nil
    }
}
