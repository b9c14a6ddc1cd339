import Foundation
import InstallEngine
import Testing

@testable import InstallDrivers

/// The pure half of a dnf job: the helper's events become reports by the plan's index, each
/// verdict is read from the rpm database at the end, and a stop ends the job at once before
/// rpm's transaction and waits for it once rpm runs.
@Suite("dnf: the helper's events and the rpm database's verdicts")
struct DNFRunStateTests {
    private static let upgrade = DNFPlanItem(action: .upgrade, name: "lab-a", arch: "noarch", oldVersion: "1.0-1", newVersion: "2.0-1", size: 4000)
    private static let install = DNFPlanItem(action: .install, name: "lab-b", arch: "noarch", newVersion: "2.0-1", size: 2000)
    private static let removal = DNFPlanItem(action: .remove, name: "lab-old", arch: "noarch", oldVersion: "1.0-1")
    private let plan = DNFPlan(job: DNFJob(request: .upgrade([]), installRoot: "/r"), items: [Self.upgrade, Self.install, Self.removal],
                               downloadSize: 6000)
    private let now = Date(timeIntervalSince1970: 1_000)

    private func feed(_ state: inout DNFRunState, _ lines: [String]) -> [DriverReport] {
        var reports: [DriverReport] = []
        for line in lines { #expect(state.eventLine(line, now: now, into: &reports), "\(line)") }
        return reports
    }

    private func progress(_ name: String, _ action: String, _ done: Int, _ total: Int) -> String {
        #"{"event":"progress","name":"\#(name)","arch":"noarch","action":"\#(action)","done":\#(done),"total":\#(total),"step":1,"steps":3}"#
    }

    private func verdicts(_ reports: [DriverReport]) -> [Int: DriverVerdict] {
        var verdicts: [Int: DriverVerdict] = [:]
        for case .updateFinished(let index, let verdict) in reports { verdicts[index] = verdict }
        return verdicts
    }

    @Test("updates start when rpm begins on them, the files' share of the bar is rpm's count, scriptlet output is the package's")
    func progressAndOutput() {
        var state = DNFRunState(plan: plan)
        var reports = feed(&state, [#"{"event":"download","name":"lab-a","arch":"noarch","done":2000,"total":4000}"#])
        #expect(reports == [.jobMessage("downloading 1 of 2 packages · 2.0 kB of 6.0 kB")])
        reports = feed(&state, [#"{"event":"rpm-start","count":3}"#, progress("lab-a", "upgrade", 50, 100)])
        #expect(reports.contains(.updateStarted(index: 0)))
        #expect(reports.contains(.update(index: 0, .progress(percent: 52.5, message: "upgrading"))))
        reports = feed(&state, [#"{"event":"scriptlet-output","name":"lab-b","arch":"noarch","text":"hello from lab-b"}"#])
        #expect(reports == [.updateStarted(index: 1), .update(index: 1, .output(.stdout, "hello from lab-b"))])
        #expect(state.completedAt[0] == now)
        reports = feed(&state, [progress("lab-a", "cleanup", 1, 1)])
        #expect(reports == [.update(index: 0, .progress(percent: 97, message: "cleaning up the old version"))])
    }

    private func scriptlet(_ name: String, _ scriptlet: String) -> String {
        #"{"event":"progress","name":"\#(name)","arch":"noarch","action":"scriptlet","done":100,"total":100,"step":1,"steps":3,"scriptlet":"\#(scriptlet)"}"#
    }

    private func read(_ name: String) -> String {
        #"{"event":"progress","name":"\#(name)","arch":"noarch","action":"read","done":null,"total":null,"step":null,"steps":null}"#
    }

    /// Each percent `index`'s bar was given, in order, with its text.
    private func bar(_ reports: [DriverReport], _ index: Int) -> [String] {
        reports.compactMap { report in
            guard case .update(index, .progress(let percent, let message)) = report else { return nil }
            return "\(percent.formatted()) \(message ?? "")"
        }
    }

    private func erase(_ name: String) -> String {
        #"{"event":"progress","name":"\#(name)","arch":"noarch","action":"erase","done":null,"total":null,"step":null,"steps":null}"#
    }

    @Test("A small package's bar moves through rpm's phases (its file read, %pre, its files all at once, %post, done), an upgrade's through its cleanup, a removal's through its erase, never back")
    func phases() {
        var state = DNFRunState(plan: plan)
        // The helper's events for a transaction of small packages, as rpm 4.18 gives them.
        let reports = feed(&state, [
            #"{"event":"rpm-start","count":4}"#,
            #"{"event":"progress","name":null,"arch":null,"action":"prepare","done":4,"total":4,"step":1,"steps":1}"#,
            read("lab-b"), scriptlet("lab-b", "%pre"), progress("lab-b", "install", 0, 264), progress("lab-b", "install", 264, 264),
            scriptlet("lab-b", "%post"),
            read("lab-a"), scriptlet("lab-a", "%pre"), progress("lab-a", "upgrade", 0, 300), progress("lab-a", "upgrade", 300, 300),
            scriptlet("lab-a", "%post"),
            erase("lab-old"), scriptlet("lab-old", "%preun"), progress("lab-old", "remove", 0, 2), progress("lab-old", "remove", 2, 2), scriptlet("lab-old", "%postun"),
            erase("lab-a"), scriptlet("lab-a", "%preun"), progress("lab-a", "cleanup", 0, 2), progress("lab-a", "cleanup", 2, 2), scriptlet("lab-a", "%postun"),
            // After the package is done: text only, the bar stays.
            scriptlet("lab-a", "%posttrans"), read("lab-a"),
            #"{"event":"rpm-end","ok":true,"errors":[]}"#,
        ])
        // The job's text no longer says rpm prepares once it is on a package.
        #expect(reports.suffix(from: reports.firstIndex(of: .jobMessage("rpm prepares the transaction")) ?? 0)
            .contains(.jobMessage("rpm runs the transaction")), "\(reports)")
        #expect(bar(reports, 1) == ["10 reading the package", "20 running %pre", "25 installing", "80 installing", "85 running %post", "100 installed"])
        #expect(bar(reports, 0) == ["10 reading the package", "20 running %pre", "25 upgrading", "80 upgrading", "85 running %post",
                                    "90 new version installed; the old one's cleanup follows", "91 preparing to erase", "92 running %preun",
                                    "93 cleaning up the old version", "97 cleaning up the old version", "98 running %postun", "100 upgraded"])
        #expect(bar(reports, 2) == ["10 preparing to erase", "20 running %preun", "25 removing", "80 removing", "85 running %postun", "100 removed"])
        #expect(reports.contains(.update(index: 0, .message("running %posttrans"))))
        #expect(reports.contains(.update(index: 0, .message("reading the package"))), "a phase below the bar changes only its text")
        for index in 0..<3 {
            let percents = reports.compactMap { report -> Double? in
                guard case .update(index, .progress(let percent, _)) = report else { return nil }
                return percent
            }
            #expect(percents == percents.sorted() && Set(percents).count == percents.count, "update \(index): \(percents)")
        }
    }

    @Test("A package left before its files is not shown done: its verdict says what became of it")
    func leftBeforeItsFiles() {
        var state = DNFRunState(plan: plan)
        let reports = feed(&state, [#"{"event":"rpm-start","count":3}"#, read("lab-b"), scriptlet("lab-b", "%pre"), read("lab-a")])
        #expect(bar(reports, 1) == ["10 reading the package", "20 running %pre"])
    }

    @Test("What a scriptlet writes on stderr stays with its package, read in order with the helper's events; dnf's own lines go to the package rpm is on")
    func stderrOfAScriptlet() {
        var state = DNFRunState(plan: plan)
        var reports = feed(&state, [
            #"{"event":"rpm-start","count":3}"#, read("lab-b"), scriptlet("lab-b", "%post"),
            #"{"event":"scriptlet-output","name":"lab-b","arch":"noarch","text":"lab-b: to stdout","stream":"stdout"}"#,
            #"{"event":"scriptlet-output","name":"lab-b","arch":"noarch","text":"lab-b: to stderr","stream":"stderr"}"#,
            read("lab-a"),
            #"{"event":"scriptlet-output","name":"lab-a","arch":"noarch","text":"lab-a: %pre to stderr","stream":"stderr"}"#,
            // A helper older than the stream field: stdout.
            #"{"event":"scriptlet-output","name":"lab-a","arch":"noarch","text":"lab-a: no stream"}"#,
        ])
        #expect(reports.contains(.update(index: 1, .output(.stdout, "lab-b: to stdout"))))
        #expect(reports.contains(.update(index: 1, .output(.stderr, "lab-b: to stderr"))))
        #expect(reports.contains(.update(index: 0, .output(.stderr, "lab-a: %pre to stderr"))))
        #expect(reports.contains(.update(index: 0, .output(.stdout, "lab-a: no stream"))))
        #expect(!reports.contains { if case .update(0, .output(_, let text)) = $0 { text.hasPrefix("lab-b") } else { false } })
        reports = []
        state.outputLine("dnf: Running transaction", on: .stderr, into: &reports)
        #expect(reports == [.update(index: 0, .output(.stderr, "dnf: Running transaction"))])
    }

    @Test("every verdict comes from the rpm database: a duplicate, a package not installed, a failed scriptlet")
    func verdictsFromTheDatabase() {
        var state = DNFRunState(plan: plan)
        _ = feed(&state, [#"{"event":"rpm-start","count":3}"#, progress("lab-a", "upgrade", 100, 100), progress("lab-b", "install", 100, 100),
                          #"{"event":"scriptlet-error","name":"lab-b","arch":"noarch","message":"%post scriptlet failed"}"#,
                          progress("lab-old", "remove", 1, 1), #"{"event":"rpm-end","ok":false,"errors":["lab-b: %post"]}"#])
        let clean = verdicts(state.settle(outcome: .exited(1), installed: ["lab-a.noarch": ["2.0-1"], "lab-b.noarch": ["2.0-1"]],
                                          rebootRule: DNFRebootRule(names: ["lab-a"]), now: now))
        #expect(clean[0]?.resultCode == .succeeded)
        #expect(clean[0]?.rebootRequired == true)
        #expect(clean[1]?.resultCode == .succeededWithErrors)
        #expect(clean[1]?.reason == "%post scriptlet failed")
        #expect(clean[2]?.resultCode == .succeeded)

        var again = DNFRunState(plan: plan)
        _ = feed(&again, [#"{"event":"rpm-start","count":3}"#, progress("lab-a", "upgrade", 100, 100), progress("lab-b", "install", 100, 100),
                          #"{"event":"rpm-end","ok":false,"errors":[]}"#])
        let broken = verdicts(again.settle(outcome: .exited(1), installed: ["lab-a.noarch": ["1.0-1", "2.0-1"], "lab-old.noarch": ["1.0-1"]],
                                           rebootRule: DNFRebootRule(names: []), now: now))
        #expect(broken[0]?.resultCode == .failed)
        #expect(broken[0]?.reason == "rpm did not finish it: the rpm database holds 1.0-1 and 2.0-1")
        #expect(broken[1]?.reason == "rpm did not finish it: not installed")
        // rpm never began on lab-old and it is still there: the engine says it was not started.
        #expect(broken[2] == nil)
    }

    @Test("An install-only package (a new kernel beside the running one) succeeds with the older versions still installed")
    func installOnly() {
        let kernel = DNFPlanItem(action: .install, name: "kernel", arch: "x86_64", newVersion: "6.1.2-1")
        var state = DNFRunState(plan: DNFPlan(job: DNFJob(request: .upgrade([])), items: [kernel], downloadSize: 0))
        _ = feed(&state, [#"{"event":"rpm-start","count":1}"#, #"{"event":"progress","name":"kernel","arch":"x86_64","action":"install","done":1,"total":1}"#])
        let reports = state.settle(outcome: .exited(0), installed: ["kernel.x86_64": ["6.1.1-1", "6.1.2-1"]], rebootRule: DNFRebootRule(), now: now)
        let verdict = verdicts(reports)[0]
        #expect(verdict?.resultCode == .succeeded && verdict?.rebootRequired == true, "\(reports)")
    }

    @Test("a stop before rpm's transaction ends the job at once; during it, the stop waits and a forced one is refused")
    func stops() {
        var before = DNFRunState(plan: plan)
        _ = feed(&before, [#"{"event":"download","name":"lab-a","arch":"noarch","done":10,"total":4000}"#])
        #expect(before.requestStop() == [.jobMessage("stopping dnf: nothing is installed if rpm's transaction has not begun; once it has, the stop waits for its end")])
        #expect(before.killRefusal() == nil)
        _ = feed(&before, [#"{"event":"stopped","before":"download"}"#])
        #expect(verdicts(before.settle(outcome: .exited(3), installed: ["lab-a.noarch": ["1.0-1"], "lab-old.noarch": ["1.0-1"]],
                                       rebootRule: DNFRebootRule(), now: now)).isEmpty)

        var during = DNFRunState(plan: plan)
        _ = feed(&during, [#"{"event":"rpm-start","count":3}"#, progress("lab-a", "upgrade", 10, 100)])
        let stop = during.requestStop()
        #expect(stop.contains(.jobMessage(DNFRunState.stopWaits)))
        #expect(stop.contains(.update(index: 0, .message("rpm's transaction goes on to its end: it cannot be cut safely"))))
        #expect(during.killRefusal()?.first.map { if case .jobMessage(let text?) = $0 { text.hasPrefix("forced stop refused") } else { false } } == true)
        _ = feed(&during, [#"{"event":"stop-deferred"}"#, #"{"event":"rpm-end","ok":true,"errors":[]}"#])
        #expect(during.killRefusal() == nil)
    }

    @Test("a refusal before anything ran fails every package with dnf's words")
    func refusal() {
        var state = DNFRunState(plan: plan)
        _ = feed(&state, [#"{"event":"error","kind":"download","message":"Curl error (37): Couldn't read a file:// file"}"#])
        let reports = state.settle(outcome: .exited(2), installed: [:], rebootRule: DNFRebootRule(), now: now)
        #expect(reports == [DriverReport.unstartedUpdatesFinished(DriverVerdict.failed("not installed: Curl error (37): Couldn't read a file:// file"))])
    }

    @Test("a line that is not an event of the protocol is not taken")
    func ignored() {
        var state = DNFRunState(plan: plan)
        var reports: [DriverReport] = []
        #expect(!state.eventLine("Last metadata expiration check", now: now, into: &reports))
        #expect(!state.eventLine(#"{"event":"progress","name":"lab-z","arch":"noarch","action":"install","done":1,"total":2}"#, now: now, into: &reports))
        #expect(reports.isEmpty)
    }
}

@Suite("dnf: a helper killed from outside")
struct DNFKilledFromOutsideTests {
    @Test("A kill nobody asked for is a forced stop naming where rpm was; the package is settled from the rpm database")
    func killedDuringRPM() {
        let item = DNFPlanItem(action: .upgrade, name: "lab-a", arch: "noarch", oldVersion: "1.0-1", newVersion: "2.0-1")
        var state = DNFRunState(plan: DNFPlan(job: DNFJob(request: .upgrade([])), items: [item], downloadSize: 0))
        var reports: [DriverReport] = []
        _ = state.eventLine(#"{"event":"rpm-start","count":2}"#, now: Date(), into: &reports)
        _ = state.eventLine(#"{"event":"progress","name":"lab-a","arch":"noarch","action":"upgrade","done":5,"total":10}"#, now: Date(), into: &reports)
        let said = state.killedFromOutside(by: 9)
        #expect(said.first == .stoppedByForce(reason: "the dnf helper was killed by signal 9 during rpm's transaction, in lab-a.noarch, not by installtop"))
        let settled = state.settle(outcome: .signaled(9), installed: ["lab-a.noarch": ["1.0-1", "2.0-1"]], rebootRule: DNFRebootRule(), now: Date())
        #expect(settled.contains { if case .updateFinished(0, let verdict) = $0 { verdict.reason == "rpm did not finish it: the rpm database holds 1.0-1 and 2.0-1" } else { false } })

        var recorded = DNFRunState(plan: DNFPlan(job: DNFJob(request: .upgrade([])), items: [item], downloadSize: 0))
        _ = recorded.eventLine(#"{"event":"rpm-start","count":2}"#, now: Date(), into: &reports)
        _ = recorded.eventLine(#"{"event":"progress","name":"lab-a","arch":"noarch","action":"scriptlet","done":0,"total":1}"#, now: Date(), into: &reports)
        _ = recorded.killedFromOutside(by: 9)
        let kept = recorded.settle(outcome: .signaled(9), installed: ["lab-a.noarch": ["2.0-1"]], rebootRule: DNFRebootRule(), now: Date())
        #expect(kept.contains { if case .updateFinished(0, let verdict) = $0 { verdict.resultCode == .succeededWithErrors } else { false } },
                "rpm recorded it, its scriptlets cut: \(kept)")
    }

    @Test("The stop's own SIGINT, come before the helper took signals, ends the job before rpm as a stop does; without a stop, SIGINT is a kill from outside")
    func stopsOwnSignal() {
        let item = DNFPlanItem(action: .install, name: "lab-b", arch: "noarch", newVersion: "1.0-1")
        var stopped = DNFRunState(plan: DNFPlan(job: DNFJob(request: .install(["lab-b"])), items: [item], downloadSize: 0))
        _ = stopped.requestStop()
        #expect(stopped.ended(by: SIGINT) == [.jobMessage("stopped before rpm's transaction: nothing was installed")])
        let settled = stopped.settle(outcome: .signaled(SIGINT), installed: [:], rebootRule: DNFRebootRule(), now: Date())
        #expect(!settled.contains { if case .updateFinished = $0 { true } else { false } }, "the engine ends it not started: \(settled)")

        var outside = DNFRunState(plan: DNFPlan(job: DNFJob(request: .install(["lab-b"])), items: [item], downloadSize: 0))
        #expect(outside.ended(by: SIGINT).first == .stoppedByForce(reason: "the dnf helper was killed by signal 2 before rpm's transaction, not by installtop"))
        var killed = DNFRunState(plan: DNFPlan(job: DNFJob(request: .install(["lab-b"])), items: [item], downloadSize: 0))
        _ = killed.requestStop()
        #expect(killed.ended(by: SIGKILL).first == .stoppedByForce(reason: "the dnf helper was killed by signal 9 before rpm's transaction, not by installtop"))
    }
}

/// The words the monitor shows after a second abort of a dnf job follow "Forcing the abort of
/// NAME: " on its one footer line: short enough for a usual job name at 120 columns.
@Suite("dnf: the stop note's words")
struct DNFStopNoteTests {
    @Test("The forcing words fit beside a usual job name on a 120-column footer")
    func forcingIsShort() throws {
        let forcing = try #require(DNFDriver.stopNote.forcing)
        #expect(" Forcing the abort of dnf install lab-print lab-slow · 2 to install: ".count + forcing.count <= 120, "\(forcing)")
    }
}
