import InstallEngine
import Testing

@testable import InstallDrivers

/// The pure half of a running apt job: Status-Fd lines (Documentation/PACKAGE-FACTS.md), output lines and apt's
/// exit as the engine's driver reports, by the update's index in the plan.
@Suite("apt: the run state of a transaction")
struct APTRunStateTests {
    private static let base = PackageChange(package: "lab-base", action: .install, newVersion: "1.0")
    private static let app = PackageChange(package: "lab-app", action: .upgrade, oldVersion: "1.0", newVersion: "2.0")
    private static let old = PackageChange(package: "lab-old", action: .remove, oldVersion: "0.9")

    private static let baseDownload = APTDownload(
        uri: "file:/r/./lab-base_1.0_all.deb", fileName: "lab-base_1.0_all.deb", package: "lab-base", size: 5242)
    private static let appDownload = APTDownload(
        uri: "file:/r/./lab-app_2.0_all.deb", fileName: "lab-app_2.0_all.deb", package: "lab-app", size: 6000)

    /// A plan built by hand, as `APTPlanner` would give it.
    private func plan(_ changes: [PackageChange], downloads: [APTDownload] = []) -> APTPlan {
        APTPlan(
            job: PackageJob(request: .install(changes.map(\.package))),
            environment: APTEnvironment(aptConfig: nil, administrativeDirectory: "/x", root: "/x", dpkgOptions: []),
            changes: changes, downloads: downloads)
    }

    private var noReboots: () -> Set<String> { { [] } }

    /// Feeds `lines` and returns every report, in order.
    private func feed(_ state: inout APTRunState, _ lines: [String], rebootList: () -> Set<String> = { [] }) -> [DriverReport] {
        lines.flatMap { state.statusLine($0, rebootList: rebootList) }
    }

    private func finishedIndices(_ reports: [DriverReport]) -> [Int] {
        reports.compactMap { if case .updateFinished(let index, _) = $0 { index } else { nil } }
    }

    private func verdict(of index: Int, in reports: [DriverReport]) -> DriverVerdict? {
        reports.lazy.compactMap { report -> DriverVerdict? in
            if case .updateFinished(index, let verdict) = report { verdict } else { nil }
        }.first
    }

    private func installed(_ package: String, at percent: String) -> [String] {
        [
            "pmstatus:\(package):\(percent):Preparing \(package) (amd64)",
            "pmstatus:\(package):\(percent):Unpacking \(package) (amd64)",
            "pmstatus:\(package):\(percent):Configuring \(package) (amd64)",
            "pmstatus:\(package):\(percent):Installed \(package) (amd64)",
        ]
    }

    // MARK: - Starts, progress, held successes

    @Test("A package's first pmstatus line starts it; each phase is its percent; apt's overall figure is the job's")
    func startAndProgress() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        #expect(state.statusLine("pmstatus:dpkg-exec:0.0000:Running dpkg", rebootList: noReboots).isEmpty, "not a package")
        #expect(state.statusLine("pmstatus:lab-base:0.0000:Preparing lab-base (amd64)", rebootList: noReboots) == [
            .updateStarted(index: 0), .update(index: 0, .progress(percent: 30, message: "preparing")), .jobProgress(percent: 0),
        ])
        #expect(state.hasStarted(0) && !state.hasStarted(1))
        #expect(state.statusLine("pmstatus:lab-base:5.8824:Unpacking lab-base (amd64)", rebootList: noReboots) == [
            .update(index: 0, .progress(percent: 50, message: "unpacking")), .jobProgress(percent: 5.8824),
        ])
        #expect(state.statusLine("pmstatus:lab-base:52.9412:Configuring lab-base (amd64)", rebootList: noReboots) == [
            .update(index: 0, .progress(percent: 80, message: "configuring")), .jobProgress(percent: 52.9412),
        ])
        #expect(state.inFlight == [0])
    }

    @Test("Installed is held back, then released when dpkg's output moves on to the next package")
    func heldReleasedWhenOutputMovesOn() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        let first = feed(&state, installed("lab-base", at: "58.8235"))
        #expect(finishedIndices(first).isEmpty, "the success waits: apt's exit may still mark it")
        #expect(first.suffix(2) == [.update(index: 0, .progress(percent: 100, message: "installed")), .jobProgress(percent: 58.8235)])
        #expect(state.hasFinished(0))
        #expect(state.inFlight.isEmpty)
        // Status-Fd alone moving on does not release it: lab-base's last lines may still be on their way.
        let next = state.statusLine("pmstatus:lab-app:60.0000:Preparing lab-app (amd64)", rebootList: noReboots)
        #expect(next.first == .updateStarted(index: 1) && finishedIndices(next).isEmpty, "\(next)")
        #expect(state.outputLine("Preparing to unpack .../lab-app_2.0_all.deb ...", on: .stdout) == [
            .updateFinished(index: 0, DriverVerdict(resultCode: .succeeded, rebootRequired: false)),
            .update(index: 1, .output(.stdout, "Preparing to unpack .../lab-app_2.0_all.deb ...")),
        ])
    }

    @Test("Downloads start no package: a downloaded package waits until dpkg works on it")
    func downloadsStartNothing() {
        let plan = plan([Self.base, Self.app], downloads: [Self.baseDownload, Self.appDownload])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        // The job says the download; no package hears of it.
        #expect(feed(&state, ["dlstatus:1:0.0000:Retrieving file 1 of 2", "dlstatus:2:24.8054:Retrieving file 2 of 2"]) == [
            .jobMessage("downloading 1 of 2 · 0.0 of 11.2 kB"), .jobMessage("downloading 2 of 2 · 5.2 of 11.2 kB"),
        ])
        #expect(!state.hasStarted(0) && !state.hasStarted(1))
        #expect(state.inFlight.isEmpty, "downloads change nothing on the system")
        #expect(state.statusLine("pmstatus:lab-base:0.0000:Preparing lab-base (amd64)", rebootList: noReboots) == [
            .updateStarted(index: 0), .jobMessage(nil), .update(index: 0, .progress(percent: 30, message: "preparing")), .jobProgress(percent: 0),
        ])
        #expect(!state.hasStarted(1), "lab-app is downloaded, not running")
    }

    @Test("A dlstatus line read after dpkg's output started a package (the pipes' order under load) says no download")
    func lateDownloadLine() {
        let plan = plan([Self.base, Self.app], downloads: [Self.baseDownload, Self.appDownload])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, ["dlstatus:1:0.0000:Retrieving file 1 of 2"])
        #expect(state.outputLine("Unpacking lab-base (1.0) ...", on: .stdout).prefix(2) == [.updateStarted(index: 0), .jobMessage(nil)])
        #expect(feed(&state, ["dlstatus:2:24.8054:Retrieving file 2 of 2"]).isEmpty, "the text stays cleared")
    }

    @Test("Lines that do not move dpkg to another package leave the success held")
    func heldNotReleasedEarly() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, installed("lab-base", at: "58.8235"))
        // A repeated Installed of the same package, a conffile note, dpkg's own step: nothing new.
        #expect(finishedIndices(feed(&state, [
            "pmstatus:lab-base:59.0000:Installed lab-base (amd64)",
            "pmconffile:/etc/lab-base.conf:59.0000:'/x/etc/lab-base.conf' '/x/etc/lab-base.conf.dpkg-new' 1 1",
            "pmstatus:dpkg-exec:59.0000:Running dpkg",
        ])).isEmpty)
        let end = state.aptEnded(.exited(0), plan: plan, finalStates: [
            "lab-base": APTPackageState(status: "ii", version: "1.0"), "lab-app": APTPackageState(status: "ii", version: "1.0"),
        ], rebootList: [])
        #expect(end == [.updateFinished(index: 0, DriverVerdict(resultCode: .succeeded, rebootRequired: false))])
    }

    @Test("apt's end releases the last held success")
    func heldReleasedAtEnd() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        let lines = installed("lab-base", at: "50.0000") + installed("lab-app", at: "94.1176")
        let reports = feed(&state, lines)
        #expect(finishedIndices(reports).isEmpty, "no output said dpkg moved past lab-base")
        let finals = ["lab-base": APTPackageState(status: "ii", version: "1.0"), "lab-app": APTPackageState(status: "ii", version: "2.0")]
        #expect(state.aptEnded(.exited(0), plan: plan, finalStates: finals, rebootList: []) == [
            .updateFinished(index: 0, DriverVerdict(resultCode: .succeeded, rebootRequired: false)),
            .updateFinished(index: 1, DriverVerdict(resultCode: .succeeded, rebootRequired: false)),
        ])
    }

    @Test("Exit status 100 with no package failed: the held package gets an error before its verdict")
    func exitHundredWithoutFailure() {
        let plan = plan([Self.base])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, installed("lab-base", at: "58.8235"))
        let end = state.aptEnded(.exited(100), plan: plan, finalStates: ["lab-base": APTPackageState(status: "ii", version: "1.0")], rebootList: [])
        #expect(end == [
            .update(index: 0, .error("apt-get exited with status 100")),
            .updateFinished(index: 0, DriverVerdict(resultCode: .succeeded, rebootRequired: false)),
        ])
    }

    @Test("pmerror fails the package with apt's words; apt's exit 100 then adds no error to the others")
    func pmerrorFails() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, installed("lab-base", at: "40.0000"))
        let reports = feed(&state, [
            "pmstatus:lab-app:50.0000:Preparing lab-app (amd64)",
            "pmstatus:lab-app:52.0000:Configuring lab-app (amd64)",
            "pmerror:lab-app:52.9412:installed lab-app package post-installation script subprocess returned error exit status 1",
        ])
        let expected = DriverVerdict.failed("installed lab-app package post-installation script subprocess returned error exit status 1")
        #expect(verdict(of: 1, in: reports) == nil, "held until dpkg's output moves on: the script's own lines may still come")
        #expect(state.hasFinished(1))
        #expect(state.inFlight.isEmpty)
        let end = state.aptEnded(.exited(100), plan: plan, finalStates: [
            "lab-base": APTPackageState(status: "ii", version: "1.0"), "lab-app": APTPackageState(status: "iF", version: "2.0"),
        ], rebootList: [])
        #expect(end == [
            .updateFinished(index: 0, DriverVerdict(resultCode: .succeeded, rebootRequired: false)), .updateFinished(index: 1, expected),
        ], "no error added for apt's exit 100: lab-app failed")
    }

    @Test("pmerror for a package apt never started starts it, with its arch-qualified name")
    func pmerrorStarts() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        let reports = feed(&state, ["pmerror:lab-app:amd64:60.0000:dependency problems - leaving unconfigured"])
        #expect(reports == [.updateStarted(index: 1)])
        #expect(state.aptEnded(.exited(100), plan: plan, finalStates: [:], rebootList: []) == [
            .updateFinished(index: 1, .failed("dependency problems - leaving unconfigured")),
        ])
    }

    // MARK: - Output

    @Test("Output lines go to the package they name, else to the one dpkg's output last named")
    func outputAttribution() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, installed("lab-base", at: "40.0000"))
        _ = feed(&state, ["pmstatus:lab-app:50.0000:Preparing lab-app (amd64)"])
        #expect(state.outputLine("Setting up lab-base (1.0) ...", on: .stdout) == [
            .update(index: 0, .output(.stdout, "Setting up lab-base (1.0) ...")),
        ])
        #expect(state.outputLine("Unpacking lab-app (2.0) over (1.0) ...", on: .stdout) == [
            .updateFinished(index: 0, DriverVerdict(resultCode: .succeeded, rebootRequired: false)),
            .update(index: 1, .output(.stdout, "Unpacking lab-app (2.0) over (1.0) ...")),
        ])
        #expect(state.outputLine("lab-app: postinst says hello", on: .stderr) == [
            .update(index: 1, .output(.stderr, "lab-app: postinst says hello")),
        ])
        // A package outside the plan named by dpkg's output: the line goes to the one dpkg's output is on.
        #expect(state.outputLine("Setting up unrelated (3) ...", on: .stdout) == [
            .update(index: 1, .output(.stdout, "Setting up unrelated (3) ...")),
        ])
    }

    @Test("With downloads, lines that name no package go to the package dpkg works on, not the last one downloaded")
    func outputFollowsDpkgAfterDownloads() {
        let plan = plan([Self.base, Self.app], downloads: [Self.baseDownload, Self.appDownload])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, ["dlstatus:1:0.0000:Retrieving file 1 of 2", "dlstatus:2:24.8054:Retrieving file 2 of 2"])
        _ = feed(&state, ["pmstatus:lab-base:40.0000:Preparing lab-base (amd64)", "pmstatus:lab-base:45.0000:Configuring lab-base (amd64)"])
        #expect(state.outputLine("lab-base postinst: hello", on: .stdout) == [
            .update(index: 0, .output(.stdout, "lab-base postinst: hello")),
        ])
    }

    @Test("A line dpkg redraws with carriage returns keeps what a terminal would show last")
    func carriageReturns() {
        let plan = plan([Self.base])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, ["pmstatus:lab-base:10.0000:Preparing lab-base (amd64)"])
        #expect(state.outputLine("(Reading database ... \r(Reading database ... 50%\r(Reading database ... 7 files installed.)", on: .stdout) == [
            .update(index: 0, .output(.stdout, "(Reading database ... 7 files installed.)")),
        ])
    }

    @Test("Numbered archive names (apt hands dpkg many at once) still name their package")
    func numberedArchives() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, ["pmstatus:lab-base:10.0000:Preparing lab-base (amd64)", "pmstatus:lab-app:20.0000:Preparing lab-app (amd64)"])
        #expect(state.outputLine("Preparing to unpack .../00-lab-base_1.0_all.deb ...", on: .stdout) == [
            .update(index: 0, .output(.stdout, "Preparing to unpack .../00-lab-base_1.0_all.deb ...")),
        ])
        #expect(DpkgOutputLine.withoutArchiveNumber("00-lab-base") == "lab-base")
        #expect(DpkgOutputLine.withoutArchiveNumber("0ad") == "0ad")
        #expect(DpkgOutputLine.withoutArchiveNumber("2ping") == "2ping")
    }

    @Test("Output while only a held success is left goes to the held package")
    func outputToHeld() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, installed("lab-base", at: "40.0000"))
        #expect(state.outputLine("Processing triggers for man-db (2.11) ...", on: .stdout) == [
            .update(index: 0, .output(.stdout, "Processing triggers for man-db (2.11) ...")),
        ])
    }

    @Test("Output before any package started waits, in order, for the first package to start")
    func outputBeforeStart() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        #expect(state.outputLine("Reading package lists...", on: .stdout).isEmpty)
        #expect(state.outputLine("W: something", on: .stderr).isEmpty)
        // A line of a maintainer script naming a package dpkg is not on yet waits too.
        #expect(state.outputLine("lab-app: hello", on: .stdout).isEmpty)
        let reports = state.statusLine("pmstatus:lab-base:0.0000:Preparing lab-base (amd64)", rebootList: noReboots)
        #expect(reports.prefix(4) == [
            .updateStarted(index: 0),
            .update(index: 0, .output(.stdout, "Reading package lists...")),
            .update(index: 0, .output(.stderr, "W: something")),
            .update(index: 0, .output(.stdout, "lab-app: hello")),
        ])
        let later = state.statusLine("pmstatus:lab-app:50.0000:Preparing lab-app (amd64)", rebootList: noReboots)
        #expect(!later.contains { if case .update(_, .output) = $0 { true } else { false } }, "delivered once")
    }

    // MARK: - Reboot

    @Test("A package newly listed in reboot-required.pkgs when it finishes asked for a reboot; one listed before did not")
    func rebootDetection() {
        let plan = plan([Self.base, Self.app, PackageChange(package: "lab-quiet", action: .install, newVersion: "1.0")])
        var state = APTRunState(plan: plan, rebootListBefore: ["lab-app", "elsewhere"])
        var reads = 0
        let listed: () -> Set<String> = {
            reads += 1
            return ["lab-app", "elsewhere", "lab-base"]
        }
        let reports = feed(&state, installed("lab-base", at: "10.0000") + installed("lab-app", at: "50.0000")
            + installed("lab-quiet", at: "90.0000"), rebootList: listed)
        let end = state.aptEnded(.exited(0), plan: plan, finalStates: [:], rebootList: [])
        let all = reports + end
        #expect(verdict(of: 0, in: all)?.rebootRequired == true, "lab-base appeared in the list while apt worked on it")
        #expect(verdict(of: 1, in: all)?.rebootRequired == false, "lab-app was listed before apt started")
        #expect(verdict(of: 2, in: all)?.rebootRequired == false, "lab-quiet is not listed")
        #expect(reads == 3, "the list is read once per finished package, not per line")
    }

    @Test("A package already listed when an earlier package's finish is read still asked: the lines lag behind dpkg")
    func rebootListedBeforeItsFinishIsRead() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        // lab-app's postinst listed it before lab-base's `Installed` was read (both lines were in
        // the pipe together on a loaded machine; a real run lost lab-kernel's reboot this way).
        let reports = feed(&state, installed("lab-base", at: "10.0000") + installed("lab-app", at: "50.0000"),
                           rebootList: { ["lab-app"] })
        let all = reports + state.aptEnded(.exited(0), plan: plan, finalStates: [:], rebootList: [])
        #expect(verdict(of: 0, in: all)?.rebootRequired == false, "lab-base is not listed")
        #expect(verdict(of: 1, in: all)?.rebootRequired == true, "lab-app was added to the list during the transaction")
    }

    // MARK: - Stop

    @Test("requestStop tells the packages dpkg works on that the job stops after them, once")
    func requestStop() {
        let plan = plan([Self.base, Self.app, Self.old], downloads: [Self.baseDownload, Self.appDownload])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, [
            "dlstatus:1:0.0000:Retrieving file 1 of 2", "dlstatus:2:20.0000:Retrieving file 2 of 2",
            "pmstatus:lab-base:30.0000:Preparing lab-base (amd64)",
        ])
        #expect(state.inFlight == [0])
        #expect(state.requestStop() == [.update(index: 0, .message(APTRunState.stoppingMessage))])
        #expect(state.stopRequested)
        #expect(state.requestStop().isEmpty, "a second request says nothing new")
        // A package that starts after the request is told at once.
        let removal = feed(&state, ["pmstatus:lab-old:60.0000:Preparing for removal lab-old (amd64)"])
        #expect(removal.prefix(2) == [.updateStarted(index: 2), .update(index: 2, .message(APTRunState.stoppingMessage))])
    }

    @Test("A stop that comes when every package is only downloaded tells the first one dpkg then works on, once")
    func stopBetweenDownloadsAndDpkg() {
        let plan = plan([Self.base, Self.app], downloads: [Self.baseDownload, Self.appDownload])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, ["dlstatus:1:0.0000:Retrieving file 1 of 2", "dlstatus:2:20.0000:Retrieving file 2 of 2"])
        #expect(state.requestStop().isEmpty, "dpkg works on nothing yet")
        let preparing = feed(&state, ["pmstatus:lab-base:30.0000:Preparing lab-base (amd64)"])
        #expect(preparing.contains(.update(index: 0, .message(APTRunState.stoppingMessage))))
        let unpacking = feed(&state, ["pmstatus:lab-base:35.0000:Unpacking lab-base (amd64)"])
        #expect(!unpacking.contains(.update(index: 0, .message(APTRunState.stoppingMessage))), "told once")
    }

    @Test("After a stop, packages only downloaded that dpkg shows as before get no verdict (the engine ends them aborted, not started); one it shows done succeeds")
    func stopAbortsDownloaded() {
        let plan = plan([Self.base, Self.app, Self.old], downloads: [Self.baseDownload, Self.appDownload])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, ["dlstatus:1:0.0000:Retrieving file 1 of 2", "dlstatus:2:20.0000:Retrieving file 2 of 2"]
            + installed("lab-base", at: "40.0000"))
        _ = state.requestStop()
        let end = state.aptEnded(.exited(0), plan: plan, finalStates: [
            "lab-base": APTPackageState(status: "ii", version: "1.0"), "lab-app": APTPackageState(status: "ii", version: "1.0"),
            "lab-old": APTPackageState(status: "rc", version: "0.9"),
        ], rebootList: [])
        #expect(verdict(of: 0, in: end) == DriverVerdict(resultCode: .succeeded, rebootRequired: false))
        #expect(!state.hasStarted(1))
        #expect(verdict(of: 1, in: end) == nil && !end.contains(.updateStarted(index: 1)), "\(end)")
        // apt never reported lab-old, but dpkg shows it removed: its result is dpkg's (rule 23),
        // also after a stop.
        #expect(end.contains(.updateStarted(index: 2)))
        #expect(verdict(of: 2, in: end) == DriverVerdict(resultCode: .succeeded, reason: "dpkg shows it removed, its configuration files kept"))
    }

    // MARK: - apt's end checked against dpkg

    @Test("A package apt never reported that dpkg shows done gets started and a succeeded verdict naming dpkg's state")
    func finalStatesFinishUnreported() {
        let plan = plan([Self.base, Self.app, Self.old])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        _ = feed(&state, installed("lab-base", at: "40.0000"))
        let end = state.aptEnded(.exited(0), plan: plan, finalStates: [
            "lab-base": APTPackageState(status: "ii", version: "1.0"),
            "lab-app": APTPackageState(status: "ii", version: "2.0"),
            "lab-old": APTPackageState(status: "rc", version: "0.9"),
        ], rebootList: [])
        #expect(end == [
            .updateFinished(index: 0, DriverVerdict(resultCode: .succeeded, rebootRequired: false)),
            .updateStarted(index: 1),
            .update(index: 1, .progress(percent: 100, message: "installed")),
            .updateFinished(index: 1, DriverVerdict(resultCode: .succeeded, reason: "dpkg shows it installed at 2.0")),
            .updateStarted(index: 2),
            .update(index: 2, .progress(percent: 100, message: "removed")),
            .updateFinished(index: 2, DriverVerdict(
                resultCode: .succeeded, reason: "dpkg shows it removed, its configuration files kept")),
        ])
    }

    @Test("A package finished from dpkg's final state asked for a reboot when the list apt left names it and the list before did not")
    func finalStatesCarryTheReboot() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: ["lab-base"])
        let end = state.aptEnded(.exited(0), plan: plan, finalStates: [
            "lab-base": APTPackageState(status: "ii", version: "1.0"),
            "lab-app": APTPackageState(status: "ii", version: "2.0"),
        ], rebootList: ["lab-base", "lab-app"])
        #expect(verdict(of: 0, in: end)?.rebootRequired == nil, "lab-base was listed before apt started: no word on it")
        #expect(verdict(of: 1, in: end)?.rebootRequired == true, "lab-app was added to the list")
    }

    @Test("A package dpkg shows as before gets no verdict from apt's end (the engine fails it as not reached); one dpkg left half-way fails with its state")
    func finalStatesLeaveUnsatisfied() {
        let plan = plan([Self.base, Self.app])
        var state = APTRunState(plan: plan, rebootListBefore: [])
        let end = state.aptEnded(.exited(100), plan: plan, finalStates: [
            "lab-base": APTPackageState(status: "iU", version: "1.0"),
            "lab-app": APTPackageState(status: "ii", version: "1.0"),
        ], rebootList: [])
        #expect(end == [
            .updateStarted(index: 0),
            .updateFinished(index: 0, .failed("apt did not finish it: dpkg shows it unpacked but not configured at 1.0 (iU) at the end", code: 100)),
        ], "lab-base is unpacked only, which is not 'not reached'; lab-app is still at its old version")
    }

    // MARK: - Package names in dpkg's lines

    @Test("packageWorkedOn reads the package from apt's and dpkg's lines", arguments: [
        ("Selecting previously unselected package lab-base.", "lab-base"),
        ("Preparing to unpack .../lab-base_1.0_all.deb ...", "lab-base"),
        ("Preparing to unpack /tmp/r/var/cache/apt/archives/lab-app_2.0_all.deb ...", "lab-app"),
        ("Unpacking lab-base (1.0) ...", "lab-base"),
        ("Unpacking libc6:amd64 (2.36-9) over (2.36-8) ...", "libc6"),
        ("Setting up lab-base (1.0) ...", "lab-base"),
        ("Setting up libssl3:amd64 (3.0.15-1) ...", "libssl3"),
        ("Removing lab-old (0.9) ...", "lab-old"),
        ("Purging configuration files for lab-old (0.9) ...", "lab-old"),
        ("Processing triggers for man-db (2.11.2-2) ...", "man-db"),
        ("dpkg: error processing package lab-app (--configure):", "lab-app"),
        ("dpkg: dependency problems prevent configuration of lab-app:", "lab-app"),
    ])
    func packageWorkedOn(line: String, package: String) {
        #expect(DpkgOutputLine.packageWorkedOn(in: line) == package)
    }

    @Test("packageWorkedOn is nil for lines about no package", arguments: [
        "Reading package lists...",
        "(Reading database ... 12345 files and directories currently installed.)",
        "lab-base: postinst running",
        " installed lab-app package post-installation script subprocess returned error exit status 1",
        "",
    ])
    func noPackageWorkedOn(line: String) {
        #expect(DpkgOutputLine.packageWorkedOn(in: line) == nil)
    }

    @Test("packageSpeaking reads a maintainer script's `P:` prefix, and nothing from other lines", arguments: [
        ("lab-app: cannot start lab-app.service: failed", "lab-app"),
        ("libc6:amd64 is held", "libc6"),
        ("Errors were encountered while processing:", nil),
        ("no colon here", nil),
        (": empty", nil),
    ] as [(String, String?)])
    func packageSpeaking(line: String, package: String?) {
        #expect(DpkgOutputLine.packageSpeaking(in: line) == package)
    }
}
