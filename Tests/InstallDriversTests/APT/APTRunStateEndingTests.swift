import InstallEngine
import Testing

@testable import InstallDrivers

/// apt's end settles every package of the plan from dpkg's final state, whatever apt said or
/// did not say (rule 23); after a forced stop (rule 25) each result keeps apart what the kill
/// left (dpkg's state right after it) and what the repair made of it (its state afterwards).
/// The shape is issue 18's: a runtime and a kit that depends on it `(= 2.0)`, both upgraded
/// from 1.0, and a tool installed beside them; a stop was asked for first, then forced.
@Suite("apt: every package settled from dpkg's final state")
struct APTRunStateEndingTests {
    private static let runtime = PackageChange(package: "lab-rt", action: .upgrade, oldVersion: "1.0", newVersion: "2.0")
    private static let kit = PackageChange(package: "lab-kit", action: .upgrade, oldVersion: "1.0", newVersion: "2.0")
    private static let tool = PackageChange(package: "lab-tool", action: .install, newVersion: "1.0")

    private let plan = APTPlan(
        job: PackageJob(request: .install(["lab-rt", "lab-kit", "lab-tool"])),
        environment: APTEnvironment(aptConfig: nil, administrativeDirectory: "/x", root: "/x", dpkgOptions: []),
        changes: [Self.runtime, Self.kit, Self.tool], downloads: [])

    private static let repaired = APTRepairOutcome(steps: ["dpkg --configure -a ran", "apt-get -f install ran"], problem: nil, fixCommand: "apt-get -f install")
    private static let repairedText = "dpkg --configure -a ran, then apt-get -f install ran; repaired: dpkg --audit is clean, apt-get check passes"

    private static func state(_ status: String, _ version: String) -> APTPackageState { APTPackageState(status: status, version: version) }

    private func verdict(of index: Int, in reports: [DriverReport]) -> DriverVerdict? {
        reports.lazy.compactMap { report -> DriverVerdict? in
            if case .updateFinished(index, let verdict) = report { verdict } else { nil }
        }.first
    }

    /// A run in which dpkg was unpacking the runtime when the stop was asked for, then forced:
    /// the runtime is cut (marked finished, as the driver does at the kill).
    private func cutInRuntime() -> APTRunState {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = state.statusLine("pmstatus:lab-rt:10.0000:Preparing lab-rt (amd64)", rebootList: { [] })
        _ = state.statusLine("pmstatus:lab-rt:20.0000:Unpacking lab-rt (amd64)", rebootList: { [] })
        _ = state.requestStop()
        #expect(state.inFlight == [0])
        _ = state.markFinished(0)
        return state
    }

    @Test("A forced stop whose repair completes the cut package and one apt never began: both succeed, saying the repair completed them and what the kill had left")
    func repairCompletesMoreThanTheCutPackage() {
        var state = cutInRuntime()
        let forced = APTForcedStop(cut: [0], finishedBeforeKill: nil, statesAfterKill: [
            "lab-rt": Self.state("iHR", "1.0"), "lab-kit": Self.state("ii", "1.0"),
        ], repair: Self.repaired)
        let end = state.aptEnded(.signaled(9), plan: plan, finalStates: [
            "lab-rt": Self.state("ii", "2.0"), "lab-kit": Self.state("ii", "2.0"),
        ], rebootList: [], forcedStop: forced)

        #expect(verdict(of: 0, in: end) == DriverVerdict(resultCode: .succeeded, reason:
            "completed by the repair after the forced stop, which cut it: dpkg had it half-installed at 1.0 (iHR) right after the kill, "
            + "installed at 2.0 after the repair; " + Self.repairedText))
        #expect(verdict(of: 1, in: end) == DriverVerdict(resultCode: .succeeded, reason:
            "completed by the repair after the forced stop: dpkg had it installed at 1.0 right after the kill, installed at 2.0 after the repair"))
        #expect(end.contains(.updateStarted(index: 1)) && end.contains(.update(index: 1, .progress(percent: 100, message: "installed"))))
        #expect(!end.contains(.update(index: 1, .message(APTRunState.stoppingMessage))), "settled, not told it stops: \(end)")
        // The tool was never touched: the engine ends it aborted, not started.
        #expect(verdict(of: 2, in: end) == nil && !end.contains(.updateStarted(index: 2)))
    }

    @Test("A cut package the repair could not complete is aborted with dpkg's state after the kill and after the repair, never 'left installed'")
    func cutPackageNotCompleted() {
        var state = cutInRuntime()
        let forced = APTForcedStop(cut: [0], finishedBeforeKill: nil, statesAfterKill: [
            "lab-rt": Self.state("iHR", "1.0"), "lab-kit": Self.state("ii", "1.0"),
        ], repair: Self.repaired)
        let end = state.aptEnded(.signaled(9), plan: plan, finalStates: [
            "lab-rt": Self.state("ii", "1.0"), "lab-kit": Self.state("ii", "1.0"),
        ], rebootList: [], forcedStop: forced)
        #expect(verdict(of: 0, in: end) == DriverVerdict(resultCode: .aborted, reason:
            "cut by a forced abort: dpkg had it half-installed at 1.0 (iHR) right after the kill, installed at 1.0 after the repair; "
            + Self.repairedText, hResult: .operationCancelled))
        #expect(verdict(of: 1, in: end) == nil, "lab-kit is as it was: not started")
    }

    @Test("A repair that left dpkg broken marks the cut package systemLeftBroken, its verdict first")
    func brokenRepair() {
        var state = cutInRuntime()
        let broken = APTRepairOutcome(steps: ["dpkg --configure -a exited with status 1"], problem: "dpkg --audit lists problems (lab-rt half-installed at 1.0 (iHR))",
                                      fixCommand: "apt-get -f --reinstall install lab-rt")
        let forced = APTForcedStop(cut: [0], finishedBeforeKill: nil, statesAfterKill: ["lab-rt": Self.state("iHR", "1.0"), "lab-kit": Self.state("ii", "1.0")],
                                   repair: broken)
        let end = state.aptEnded(.signaled(9), plan: plan, finalStates: ["lab-rt": Self.state("iHR", "1.0"), "lab-kit": Self.state("ii", "1.0")],
                                 rebootList: [], forcedStop: forced)
        let verdict = verdict(of: 0, in: end)
        #expect(verdict?.resultCode == .aborted && verdict?.hResult == .systemLeftBroken)
        #expect(verdict?.reason?.hasPrefix("dpkg is left broken: run `apt-get -f --reinstall install lab-rt` to repair it; ") == true, "\(String(describing: verdict))")
        #expect(verdict?.reason?.contains("cut by a forced abort: dpkg had it half-installed at 1.0 (iHR) right after the kill, half-installed at 1.0 (iHR) after the repair") == true)
    }

    @Test("A package apt left unpacked that the repair configured says it was completed by the repair, from its state right after the kill")
    func unpackedCompletedByRepair() {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        for line in ["pmstatus:lab-rt:10.0000:Preparing lab-rt (amd64)", "pmstatus:lab-rt:20.0000:Unpacking lab-rt (amd64)",
                     "pmstatus:lab-kit:30.0000:Preparing lab-kit (amd64)"] { _ = state.statusLine(line, rebootList: { [] }) }
        // dpkg was on the kit at the kill; the runtime, unpacked, waited for its configuration.
        _ = state.markFinished(1)
        let forced = APTForcedStop(cut: [1], finishedBeforeKill: nil, statesAfterKill: [
            "lab-rt": Self.state("iU", "2.0"), "lab-kit": Self.state("iU", "2.0"),
        ], repair: Self.repaired)
        let end = state.aptEnded(.signaled(9), plan: plan, finalStates: [
            "lab-rt": Self.state("ii", "2.0"), "lab-kit": Self.state("ii", "2.0"),
        ], rebootList: ["lab-rt"], forcedStop: forced)
        #expect(verdict(of: 0, in: end) == DriverVerdict(resultCode: .succeeded, reason:
            "completed by the repair after the forced stop: dpkg had it unpacked but not configured at 2.0 (iU) right after the kill, "
            + "installed at 2.0 after the repair", rebootRequired: true))
        #expect(verdict(of: 1, in: end)?.resultCode == .succeeded)
    }

    @Test("A held success dpkg does not show is failed with dpkg's state; a held failure dpkg shows done succeeds with errors")
    func heldVerdictsChecked() {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        for line in ["pmstatus:lab-rt:10.0000:Unpacking lab-rt (amd64)", "pmstatus:lab-rt:30.0000:Installed lab-rt (amd64)",
                     "pmstatus:lab-tool:40.0000:Preparing lab-tool (amd64)", "pmerror:lab-tool:50.0000:subprocess new pre-installation script returned error exit status 1"] {
            _ = state.statusLine(line, rebootList: { [] })
        }
        let end = state.aptEnded(.exited(100), plan: plan, finalStates: [
            "lab-rt": Self.state("iF", "2.0"), "lab-kit": Self.state("ii", "1.0"), "lab-tool": Self.state("ii", "1.0"),
        ], rebootList: [])
        var failed = DriverVerdict.failed("apt reported it done, but dpkg shows it half-configured at 2.0 (iF) at the end")
        failed.contradictedReport = true
        #expect(verdict(of: 0, in: end) == failed)
        var succeeded = DriverVerdict(resultCode: .succeededWithErrors, reason:
            "dpkg shows it installed at 1.0; apt reported: subprocess new pre-installation script returned error exit status 1")
        succeeded.contradictedReport = true
        #expect(verdict(of: 2, in: end) == succeeded)
    }

    @Test("An armed job's missing version (the transaction's stop line) is the run's stop, once, and tells the job it stopped before any change")
    func armedStopLine() {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        let reports = state.statusLine(APTKeptVersion.armedStopLine, rebootList: { [] })
        #expect(state.stopRequested)
        #expect(reports.contains { if case .stoppedBeforeChanges = $0 { true } else { false } }, "\(reports)")
        #expect(state.statusLine(APTKeptVersion.armedStopLine, rebootList: { [] }).isEmpty, "a second one changes nothing")
    }

    @Test("A held verdict dpkg agrees with is not counted as contradicted")
    func agreedVerdictNotContradicted() {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        for line in ["pmstatus:lab-rt:10.0000:Unpacking lab-rt (amd64)", "pmstatus:lab-rt:30.0000:Installed lab-rt (amd64)"] {
            _ = state.statusLine(line, rebootList: { [] })
        }
        let end = state.aptEnded(.exited(0), plan: plan, finalStates: ["lab-rt": Self.state("ii", "2.0")], rebootList: [])
        #expect(verdict(of: 0, in: end)?.resultCode == .succeeded)
        #expect(verdict(of: 0, in: end)?.contradictedReport == false)
    }

    @Test("After a graceful stop, a package dpkg shows done succeeds, one it left half-way is aborted with its state, untouched ones get nothing")
    func gracefulStopSettledFromDpkg() {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        for line in ["pmstatus:lab-rt:10.0000:Unpacking lab-rt (amd64)", "pmstatus:lab-rt:30.0000:Installed lab-rt (amd64)"] {
            _ = state.statusLine(line, rebootList: { [] })
        }
        _ = state.requestStop()
        let end = state.aptEnded(.exited(0), plan: plan, finalStates: [
            "lab-rt": Self.state("ii", "2.0"), "lab-kit": Self.state("iU", "2.0"),
        ], rebootList: [])
        #expect(verdict(of: 0, in: end) == DriverVerdict(resultCode: .succeeded, rebootRequired: false))
        #expect(verdict(of: 1, in: end) == DriverVerdict(resultCode: .aborted, reason:
            "apt did not finish it: dpkg shows it unpacked but not configured at 2.0 (iU) at the end", hResult: .operationCancelled))
        #expect(verdict(of: 2, in: end) == nil, "lab-tool is not installed, as before")
    }

    @Test("A reinstall apt never began after a stop gets nothing: its state cannot tell that it ran")
    func reinstallNotClaimed() {
        let change = PackageChange(package: "lab-rt", action: .reinstall, oldVersion: "1.0", newVersion: "1.0")
        let plan = APTPlan(job: PackageJob(request: .install(["lab-rt"])),
                           environment: APTEnvironment(aptConfig: nil, administrativeDirectory: "/x", root: "/x", dpkgOptions: []),
                           changes: [change], downloads: [])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = state.requestStop()
        #expect(state.aptEnded(.exited(0), plan: plan, finalStates: ["lab-rt": Self.state("ii", "1.0")], rebootList: []).isEmpty)
    }
}
