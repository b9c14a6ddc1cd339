import InstallEngine
import Testing

@testable import InstallDrivers

/// apt retries what failed to configure: with `DPkg::StopOnError=false` it goes on after a
/// failing postinst, and its last `dpkg --configure --pending` configures the failed package
/// (and the one that waited for it) again. Recorded with apt 2.6.1 and dpkg 1.21.22 in a private
/// root: `flaky`'s postinst fails on its first run only, `user` depends on it, `after` is
/// independent. dpkg ends with all three `ii` (apt exits 100). Each package's verdict waits for
/// dpkg's final state, both attempts' lines are on it while it runs, the first attempt's error
/// stays reported.
@Suite("apt: a package configured twice")
struct APTRunStateRetryTests {
    private static let names = ["after", "flaky", "user"]

    private let plan = APTPlan(
        job: PackageJob(request: .install(["flaky", "user", "after"])),
        environment: APTEnvironment(aptConfig: nil, administrativeDirectory: "/x", root: "/x", dpkgOptions: []),
        changes: Self.names.map { PackageChange(package: $0, action: .install, newVersion: "1.0") }, downloads: [])

    private static let output = [
        "Selecting previously unselected package after.", "Preparing to unpack .../r/repo/./after_1.0_all.deb ...",
        "Unpacking after (1.0) ...", "Setting up after (1.0) ...", "after: configured",
        "Selecting previously unselected package flaky.", "Preparing to unpack .../r/repo/./flaky_1.0_all.deb ...",
        "Unpacking flaky (1.0) ...", "Setting up flaky (1.0) ...", "flaky: cannot start flaky.service (first attempt)",
        "dpkg: error processing package flaky (--configure):",
        " installed flaky package post-installation script subprocess returned error exit status 1",
        "Errors were encountered while processing:", " flaky",
        "Selecting previously unselected package user.", "Preparing to unpack .../r/repo/./user_1.0_all.deb ...",
        "Unpacking user (1.0) ...", "dpkg: dependency problems prevent configuration of user:", " user depends on flaky; however:",
        "  Package flaky is not configured yet.", "dpkg: error processing package user (--configure):",
        " dependency problems - leaving unconfigured", "Errors were encountered while processing:", " user",
        "Setting up flaky (1.0) ...", "flaky: started on the second attempt", "Setting up user (1.0) ...", "user: configured",
    ]

    private static let status = [
        "pmstatus:dpkg-exec:0.0000:Running dpkg", "pmstatus:after:0.0000:Preparing after (amd64)",
        "pmstatus:after:7.6923:Unpacking after (amd64)", "pmstatus:after:15.3846:Installing after (amd64)",
        "pmstatus:after:15.3846:Preparing to configure after (amd64)", "pmstatus:after:23.0769:Configuring after (amd64)",
        "pmstatus:after:30.7692:Installed after (amd64)", "pmstatus:flaky:30.7692:Preparing flaky (amd64)",
        "pmstatus:flaky:38.4615:Unpacking flaky (amd64)", "pmstatus:flaky:46.1538:Installing flaky (amd64)",
        "pmstatus:flaky:46.1538:Preparing to configure flaky (amd64)", "pmstatus:flaky:53.8462:Configuring flaky (amd64)",
        "pmerror:flaky:53.8462:installed flaky package post-installation script subprocess returned error exit status 1",
        "pmstatus:user:53.8462:Preparing user (amd64)", "pmstatus:user:61.5385:Unpacking user (amd64)",
        "pmstatus:user:69.2308:Installing user (amd64)", "pmerror:user:69.2308:dependency problems - leaving unconfigured",
        "pmstatus:flaky:69.2308:Preparing to configure flaky (amd64)", "pmstatus:flaky:76.9231:Installed flaky (amd64)",
        "pmstatus:user:76.9231:Preparing to configure user (amd64)", "pmstatus:user:84.6154:Configuring user (amd64)",
        "pmstatus:user:92.3077:Installed user (amd64)",
    ]

    private static let installed = Dictionary(uniqueKeysWithValues: names.map { ($0, APTPackageState(status: "ii", version: "1.0")) })

    /// Every report of the run: the status lines first or the output first, then apt's exit 100.
    private func run(statusFirst: Bool, finalStates: [String: APTPackageState], rebootList: Set<String> = []) -> [DriverReport] {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        var reports: [DriverReport] = []
        let status = { (state: inout APTRunState) in for line in Self.status { reports += state.statusLine(line, rebootList: { [] }) } }
        let output = { (state: inout APTRunState) in for line in Self.output { reports += state.outputLine(line, on: .stdout) } }
        if statusFirst { status(&state); output(&state) } else { output(&state); status(&state) }
        reports += state.aptEnded(.exited(100), plan: plan, finalStates: finalStates, rebootList: rebootList)
        return reports
    }

    private func index(_ name: String) -> Int { Self.names.firstIndex(of: name) ?? -1 }

    private func verdict(of name: String, in reports: [DriverReport]) -> [DriverVerdict] {
        reports.compactMap { if case .updateFinished(index(name), let verdict) = $0 { verdict } else { nil } }
    }

    @Test("A package configured on apt's retry whose postinst listed it asked for a reboot")
    func retryCarriesTheReboot() throws {
        let reports = run(statusFirst: true, finalStates: Self.installed, rebootList: ["flaky"])
        #expect(try #require(verdict(of: "flaky", in: reports).first).rebootRequired == true)
        #expect(try #require(verdict(of: "user", in: reports).first).rebootRequired == nil)
    }

    @Test("dpkg configured both on apt's retry: each succeeds with its first attempt's error, and both attempts' lines come before its verdict",
          arguments: [true, false])
    func retrySucceeded(statusFirst: Bool) throws {
        let reports = run(statusFirst: statusFirst, finalStates: Self.installed)
        let flaky = try #require(verdict(of: "flaky", in: reports).first)
        #expect(verdict(of: "flaky", in: reports).count == 1)
        #expect(flaky.resultCode == .succeeded, "\(flaky)")
        #expect(flaky.reason == "configured again: dpkg shows it \(Self.installed["flaky"]!.description) at the end; the first attempt failed: "
                + "installed flaky package post-installation script subprocess returned error exit status 1", "\(flaky)")
        #expect(reports.contains(.update(index: index("flaky"), .error("installed flaky package post-installation script subprocess returned error exit status 1"))))
        #expect(reports.contains(.update(index: index("flaky"), .message(APTRunState.retryMessage))))
        let user = try #require(verdict(of: "user", in: reports).first)
        #expect(user.resultCode == .succeeded && user.reason?.hasSuffix("the first attempt failed: dependency problems - leaving unconfigured") == true, "\(user)")
        #expect(verdict(of: "after", in: reports).map(\.resultCode) == [.succeeded])

        // Both attempts' lines are flaky's, and all of them come before its verdict.
        let finished = try #require(reports.firstIndex { if case .updateFinished(index("flaky"), _) = $0 { true } else { false } })
        let flakyLines = reports.enumerated().compactMap { offset, report -> (Int, String)? in
            if case .update(index("flaky"), .output(_, let line)) = report { (offset, line) } else { nil }
        }
        #expect(flakyLines.map(\.1).filter { $0 == "Setting up flaky (1.0) ..." }.count == 2, "\(flakyLines)")
        for line in ["flaky: cannot start flaky.service (first attempt)", "flaky: started on the second attempt"] {
            #expect(flakyLines.contains { $0.1 == line && $0.0 < finished }, "\(line): \(flakyLines)")
        }
    }

    @Test("dpkg left it half-configured (the retry failed too): it fails with apt's words", arguments: [true, false])
    func retryFailed(statusFirst: Bool) {
        var states = Self.installed
        states["flaky"] = APTPackageState(status: "iF", version: "1.0")
        states["user"] = APTPackageState(status: "iU", version: "1.0")
        let reports = run(statusFirst: statusFirst, finalStates: states)
        #expect(verdict(of: "flaky", in: reports) == [.failed("installed flaky package post-installation script subprocess returned error exit status 1")])
        #expect(verdict(of: "user", in: reports) == [.failed("dependency problems - leaving unconfigured")])
        #expect(verdict(of: "after", in: reports).map(\.resultCode) == [.succeeded])
    }
}
