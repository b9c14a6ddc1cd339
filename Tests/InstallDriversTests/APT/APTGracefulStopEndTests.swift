import InstallEngine
import Testing

@testable import InstallDrivers

/// A graceful stop's end: apt finished the package it was on and started nothing more; what
/// the stop left to dpkg was finished after it (`dpkg --configure --pending`). The shape is an undo's: lab-base and lab-app go back from 2.0
/// to 1.0, and lab-app 2.0 needs lab-base `(= 2.0)`, so a stop after lab-base leaves lab-app's
/// dependency unmet while dpkg is consistent.
@Suite("apt: the end of a graceful stop says where apt's dependencies are left unmet")
struct APTGracefulStopEndTests {
    private static let base = PackageChange(package: "lab-base", action: .upgrade, oldVersion: "2.0", newVersion: "1.0")
    private static let app = PackageChange(package: "lab-app", action: .upgrade, oldVersion: "2.0", newVersion: "1.0")

    private let plan = APTPlan(
        job: PackageJob(request: .install(["lab-base", "lab-app"])),
        environment: APTEnvironment(aptConfig: nil, administrativeDirectory: "/x", root: "/x", dpkgOptions: []),
        changes: [Self.base, Self.app], downloads: [])

    private static let checkFails = "apt-get check fails (E: Unmet dependencies. Try 'apt --fix-broken install' with no packages (or specify a solution).)"

    private func verdict(of index: Int, in reports: [DriverReport]) -> DriverVerdict? {
        reports.lazy.compactMap { report -> DriverVerdict? in
            if case .updateFinished(index, let verdict) = report { verdict } else { nil }
        }.first
    }

    /// apt finished lab-base after the stop was asked for; its verdict is held until apt's end.
    private func stoppedAfterBase() -> (APTRunState, (index: Int, verdict: DriverVerdict)) {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        for line in ["pmstatus:lab-base:10.0000:Preparing lab-base (amd64)", "pmstatus:lab-base:20.0000:Unpacking lab-base (amd64)"] {
            _ = state.statusLine(line, rebootList: { [] })
        }
        _ = state.requestStop()
        _ = state.statusLine("pmstatus:lab-base:50.0000:Installed lab-base (amd64)", rebootList: { [] })
        let last = state.takeHeld()
        #expect(last?.index == 0)
        return (state, last ?? (0, DriverVerdict(resultCode: .succeeded)))
    }

    @Test("apt-get check names a package of the plan apt never began: it carries the verdict, aborted and systemLeftBroken; the finished package succeeds")
    func verdictOnTheUnmetPackage() {
        var (state, last) = stoppedAfterBase()
        let repair = APTRepairOutcome(steps: ["dpkg --configure --pending ran"], problem: Self.checkFails, fixCommand: "apt-get -f install",
                                      afterGracefulStop: .finishedPending, dpkgConsistent: true,
                                      unmet: ["lab-app": "Depends: lab-base (= 2.0) but 1.0 is installed"])
        let reports = state.gracefulStopEnded(last: last, repair: repair, plan: plan)
        let base = verdict(of: 0, in: reports)
        #expect(base?.resultCode == .succeeded && base?.hResult == nil, "\(String(describing: base))")
        #expect(base?.reason?.hasSuffix("the job stopped after it, as asked; dpkg --configure --pending ran; apt's dependencies of lab-app are left unmet (see its result)") == true,
                "\(String(describing: base?.reason))")
        let app = verdict(of: 1, in: reports)
        #expect(app?.resultCode == .aborted && app?.hResult == .systemLeftBroken, "\(String(describing: app))")
        #expect(app?.reason == "apt's dependencies are left unmet (dpkg is consistent): run `apt-get -f install` to repair them; " + Self.checkFails
                + "; not started: the stop came before it, and it is left with Depends: lab-base (= 2.0) but 1.0 is installed", "\(String(describing: app?.reason))")
        // It is started before its verdict: the engine takes no verdict for an update never begun.
        let started = reports.firstIndex { if case .updateStarted(1) = $0 { true } else { false } }
        let ended = reports.firstIndex { if case .updateFinished(1, _) = $0 { true } else { false } }
        #expect(started != nil && ended != nil && started! < ended!)
        // apt's end settles nothing again.
        let end = state.aptEnded(.exited(0), plan: plan, finalStates: ["lab-base": APTPackageState(status: "ii", version: "1.0"),
                                                                        "lab-app": APTPackageState(status: "ii", version: "2.0")], rebootList: [])
        #expect(verdict(of: 1, in: end) == nil)
    }

    @Test("apt-get check names no package of the plan, or dpkg is not consistent: the finished package carries the verdict, failed and systemLeftBroken")
    func verdictOnTheLastPackageOtherwise() {
        for repair in [
            APTRepairOutcome(steps: ["dpkg --configure --pending ran"], problem: Self.checkFails, fixCommand: "apt-get -f install",
                             afterGracefulStop: .finishedPending, dpkgConsistent: true, unmet: ["someone-else": "Depends: lab-base (= 2.0) but 1.0 is installed"]),
            APTRepairOutcome(steps: ["dpkg --configure --pending exited with status 1"], problem: "dpkg --audit lists problems", fixCommand: "apt-get -f install",
                             afterGracefulStop: .finishedPending, dpkgConsistent: false, unmet: ["lab-app": "Depends: lab-base (= 2.0) but 1.0 is installed"]),
        ] {
            var (state, last) = stoppedAfterBase()
            let reports = state.gracefulStopEnded(last: last, repair: repair, plan: plan)
            let base = verdict(of: 0, in: reports)
            #expect(base?.resultCode == .failed && base?.hResult == .systemLeftBroken, "\(String(describing: base))")
            #expect(verdict(of: 1, in: reports) == nil)
        }
    }

    @Test("No package finished before the stop: the steps are the job's alone, and apt-get check's verdict still goes on the unmet package")
    func noLastPackage() {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = state.requestStop()
        let clean = APTRepairOutcome(steps: ["dpkg --configure --pending ran"], problem: nil, fixCommand: "apt-get -f install",
                                     afterGracefulStop: .nothingPending, dpkgConsistent: true)
        #expect(state.gracefulStopEnded(last: nil, repair: clean, plan: plan).isEmpty)
        #expect(clean.verdict == "nothing was left pending: dpkg is consistent (dpkg --audit is clean, apt-get check passes)")
        let unmet = APTRepairOutcome(steps: ["dpkg --configure --pending ran"], problem: Self.checkFails, fixCommand: "apt-get -f install",
                                     afterGracefulStop: .finishedPending, dpkgConsistent: true,
                                     unmet: ["lab-app": "Depends: lab-base (= 2.0) but 1.0 is installed"])
        let reports = state.gracefulStopEnded(last: nil, repair: unmet, plan: plan)
        #expect(verdict(of: 0, in: reports) == nil)
        #expect(verdict(of: 1, in: reports)?.hResult == .systemLeftBroken, "\(reports)")
    }

    @Test("The packages apt-get check names with unmet dependencies, each once with the first it names, without their architecture")
    func unmetPackagesParsed() {
        let output = """
            Reading package lists...
            Building dependency tree...
            You might want to run 'apt --fix-broken install' to correct these.
            The following packages have unmet dependencies:
             lab-app : Depends: lab-base (= 2.0) but 1.0 is installed
                       Depends: lab-data (>= 2) but it is not installed
             libfoo:i386 : Depends: libbar:i386 (= 1.1) but 1.0 is installed
             lab-app : PreDepends: lab-init but it is not installed
            E: Unmet dependencies. Try 'apt --fix-broken install' with no packages (or specify a solution).
            """
        #expect(APTRepair.unmetPackages(in: output) == ["lab-app": "Depends: lab-base (= 2.0) but 1.0 is installed",
                                                        "libfoo": "Depends: libbar:i386 (= 1.1) but 1.0 is installed"])
        #expect(APTRepair.unmetPackages(in: "Reading package lists...\n").isEmpty)
    }
}
