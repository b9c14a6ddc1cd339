import InstallEngine

/// How the packages of an apt job are settled at its end (`APTRunState.aptEnded`): dpkg's
/// final state of each (after any repair), and, after a forced stop, its state right after the
/// kill, which keeps apart what the kill left and what the repair made of it.
struct APTEnding {
    let plan: APTPlan
    /// dpkg's database after apt (and any repair); empty when it could not be read.
    let finalStates: [String: APTPackageState]
    let forcedStop: APTForcedStop?

    private func change(_ index: Int) -> PackageChange { plan.changes[index] }

    private func final(_ index: Int) -> APTPackageState { finalStates[change(index).package] ?? .notInstalled }

    /// dpkg's state of update `index` right after the kill; `nil` without a forced stop, or
    /// when the database could not be read then.
    private func afterKill(_ index: Int) -> APTPackageState? {
        guard let forcedStop, !forcedStop.statesAfterKill.isEmpty else { return nil }
        return forcedStop.statesAfterKill[change(index).package] ?? .notInstalled
    }

    /// dpkg's final state has the package as its change wants it.
    func isDone(_ index: Int) -> Bool { final(index).satisfies(change(index)) }

    /// dpkg's final state shows it worked on the package (neither as before nor as wanted);
    /// never said of a database that could not be read.
    func wasWorkedOn(_ index: Int) -> Bool {
        !finalStates.isEmpty && !isDone(index) && !final(index).isUntouched(by: change(index))
    }

    /// The repair after a forced stop made the package as wanted: dpkg did not show it so
    /// right after the kill, and does now.
    func completedByRepair(_ index: Int) -> Bool {
        guard let afterKill = afterKill(index) else { return false }
        return isDone(index) && !afterKill.satisfies(change(index))
    }

    /// `dpkg had it half-installed at 2.0 (iHR) right after the kill, installed at 2.0 after
    /// the repair` after a forced stop; `dpkg shows it installed at 2.0` otherwise.
    func statesText(of index: Int) -> String {
        guard let afterKill = afterKill(index) else {
            return "dpkg shows it \(final(index).description)" + (forcedStop == nil ? " at the end" : " after the repair")
        }
        return "dpkg had it \(afterKill.description) right after the kill, \(final(index).description) after the repair"
    }

    /// Why a package apt did not report is counted done: `completed by the repair after the
    /// forced stop: …` when the repair did it, else `dpkg shows it installed at 2.0`.
    func doneText(of index: Int) -> String {
        completedByRepair(index)
            ? "completed by the repair after the forced stop: " + statesText(of: index)
            : "dpkg shows it \(final(index).description)"
    }

    /// apt's verdict on update `index`, checked against dpkg's final state: a success dpkg does
    /// not show fails; a failure dpkg shows done (and not as before: a reinstall's state cannot
    /// tell) succeeds with errors, apt's words kept.
    func checked(_ verdict: DriverVerdict, of index: Int, rebootRequired: Bool?) -> DriverVerdict {
        guard !finalStates.isEmpty else { return verdict }
        switch verdict.resultCode {
        case .succeeded, .succeededWithErrors:
            guard !isDone(index) else { return verdict }
            var contradicted = DriverVerdict.failed("apt reported it done, but " + statesText(of: index))
            contradicted.contradictedReport = true
            return contradicted
        case .failed where isDone(index) && !final(index).isUntouched(by: change(index)):
            var contradicted = DriverVerdict(resultCode: .succeededWithErrors, reason: doneText(of: index) + "; apt reported: " + (verdict.reason ?? "an error"),
                                             rebootRequired: rebootRequired)
            contradicted.contradictedReport = true
            return contradicted
        default:
            return verdict
        }
    }

    /// The verdict of update `index`, which the forced stop cut: succeeded when the repair
    /// completed it (or dpkg had finished it before the kill), aborted with both states
    /// otherwise; a repair that left dpkg broken marks it `systemLeftBroken` either way.
    func cutVerdict(of index: Int, rebootRequired: Bool?) -> DriverVerdict {
        guard let forcedStop else { return DriverVerdict(resultCode: .aborted, hResult: .operationCancelled) }
        let repair = forcedStop.repair
        guard isDone(index), !repair.leftBroken else {
            return DriverVerdict(resultCode: .aborted, reason: repair.reason(after: "cut by \(forcedStop.cutBy): " + statesText(of: index)),
                                 hResult: repair.leftBroken ? .systemLeftBroken : .operationCancelled)
        }
        let context = completedByRepair(index)
            ? "completed by the repair after the forced stop, which cut it: " + statesText(of: index)
            : "cut by \(forcedStop.cutBy) after dpkg had finished it: " + statesText(of: index)
        return DriverVerdict(resultCode: .succeeded, reason: repair.reason(after: context), rebootRequired: rebootRequired)
    }
}
