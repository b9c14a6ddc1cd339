import InstallEngine
import Testing

@testable import InstallDrivers

/// What apt says after the gate refused an archive (`DpkgArchiveGate`): dpkg's errors for the
/// archives it left, and for a package apt then asked it to configure without it ever being
/// unpacked, are the stop's, and so is apt's exit 100; none is a failure or an ignored line.
@Suite("apt: what dpkg says of the archives the gate left")
struct APTRunStateGateTests {
    private static let first = PackageChange(package: "lab-a", action: .install, newVersion: "1.0")
    private static let second = PackageChange(package: "lab-b", action: .install, newVersion: "1.0")
    private static let third = PackageChange(package: "lab-c", action: .install, newVersion: "1.0")

    private let plan = APTPlan(
        job: PackageJob(request: .install(["lab-a", "lab-b", "lab-c"])),
        environment: APTEnvironment(aptConfig: nil, administrativeDirectory: "/x", root: "/x", dpkgOptions: []),
        changes: [Self.first, Self.second, Self.third], downloads: [])

    private static let archiveError = "pmerror:/tmp/apt-dpkg-install-Ab12/01-lab-b_1.0_all.deb:40.0000:dpkg-deb --control subprocess returned error exit status 75"
    private static let configureError = "pmerror:lab-c:60.0000:package lab-c is not ready for configuration  cannot configure (current status 'not-installed')"

    private func verdict(of index: Int, in reports: [DriverReport]) -> DriverVerdict? {
        reports.lazy.compactMap { report -> DriverVerdict? in
            if case .updateFinished(index, let verdict) = report { verdict } else { nil }
        }.first
    }

    /// dpkg unpacked lab-a; the stop came; the gate refused lab-b's archive.
    private func refusedAfterFirst(into reports: inout [DriverReport]) -> APTRunState {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        for line in ["pmstatus:lab-a:10.0000:Preparing lab-a (all)", "pmstatus:lab-a:20.0000:Unpacking lab-a (all)"] {
            reports += state.statusLine(line, rebootList: { [] })
        }
        reports += state.requestStop()
        reports += state.outputLine(DpkgArchiveGate.refusalNotice, on: .stderr)
        return state
    }

    @Test("After the stop, dpkg's errors for the archives it left and for packages it never began are dropped: no verdict, no start, no ignored line")
    func errorsOfTheStopAreDropped() {
        var reports: [DriverReport] = []
        var state = refusedAfterFirst(into: &reports)
        let ignored = state.tracker.ignoredLines
        for line in [Self.archiveError, Self.configureError] {
            #expect(state.statusLine(line, rebootList: { [] }).isEmpty, "\(line)")
        }
        #expect(state.tracker.ignoredLines == ignored)
        #expect(!state.hasStarted(1) && !state.hasStarted(2) && !state.hasFinished(2))
        // apt's last run configures lab-a; apt exits 100 for dpkg's errors.
        for line in ["pmstatus:lab-a:70.0000:Configuring lab-a (all)", "pmstatus:lab-a:80.0000:Installed lab-a (all)"] {
            _ = state.statusLine(line, rebootList: { [] })
        }
        let end = state.aptEnded(.exited(100), plan: plan, finalStates: ["lab-a": APTPackageState(status: "ii", version: "1.0")], rebootList: [])
        #expect(verdict(of: 0, in: end)?.resultCode == .succeeded && verdict(of: 0, in: end)?.reason == nil, "\(end)")
        #expect(!end.contains { if case .update(0, .error) = $0 { true } else { false } }, "apt's exit is the stop's, not lab-a's: \(end)")
        #expect(verdict(of: 1, in: end) == nil && verdict(of: 2, in: end) == nil, "the engine ends them aborted, not started")
    }

    @Test("Without a stop the same lines keep their meaning: the gate's refusal of an archive is no package's failure (a stop asked before the run heard of it), a package's error fails it, apt's exit 100 marks the last success")
    func withoutAStopNothingChanges() {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        for line in ["pmstatus:lab-a:10.0000:Preparing lab-a (all)", "pmstatus:lab-a:80.0000:Installed lab-a (all)"] {
            _ = state.statusLine(line, rebootList: { [] })
        }
        let refused = state.statusLine(Self.archiveError, rebootList: { [] })
        #expect(refused.isEmpty, "\(refused)")
        let failed = state.statusLine(Self.configureError, rebootList: { [] })
        #expect(failed.contains(.updateStarted(index: 2)), "\(failed)")
        let end = state.aptEnded(.exited(100), plan: plan, finalStates: ["lab-a": APTPackageState(status: "ii", version: "1.0")], rebootList: [])
        #expect(verdict(of: 2, in: failed + end)?.resultCode == .failed)
    }

    @Test("A stop the gate did not act on (apt stopped on its own safe point): apt's non-zero exit still marks the last success")
    func exitWithoutRefusalStillCounts() {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        for line in ["pmstatus:lab-a:10.0000:Preparing lab-a (all)", "pmstatus:lab-a:80.0000:Installed lab-a (all)"] {
            _ = state.statusLine(line, rebootList: { [] })
        }
        _ = state.requestStop()
        let end = state.aptEnded(.exited(100), plan: plan, finalStates: ["lab-a": APTPackageState(status: "ii", version: "1.0")], rebootList: [])
        #expect(end.contains(.update(index: 0, .error("apt-get exited with status 100"))), "\(end)")
    }
}
