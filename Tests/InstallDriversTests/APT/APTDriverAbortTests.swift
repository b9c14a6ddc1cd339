import APTTestSupport
import Foundation
import Glibc
import InstallDrivers
import InstallEngine
import Testing
import TestProcessSupport

/// Aborting a real apt transaction in a private root (rules 24–25, Documentation/PACKAGE-FACTS.md "Stopping safely"): the
/// first request lets the package dpkg works on finish and starts no other; a second one kills
/// apt, dpkg and the maintainer script, then repairs dpkg's database and says what was left.
///
/// lab-b and lab-c depend on lab-a so that apt works on lab-a first; lab-a's preinst writes a
/// marker, so the abort lands while dpkg is inside it, never by timing.
@Suite("apt: aborting the driver", .serialized)
struct APTDriverAbortTests {
    private static func packages(preinst: String) -> [TestPackage] {
        [
            TestPackage(name: "lab-a", preinst: preinst),
            TestPackage(name: "lab-b", depends: "lab-a"),
            TestPackage(name: "lab-c", depends: "lab-a"),
        ]
    }

    /// The stop message the driver shows on the package it waits for.
    private static let stopping = "stopping after this package"

    @Test("Abort during lab-a's preinst: lab-a finishes and succeeds, lab-b and lab-c are aborted unstarted, dpkg is consistent")
    func gracefulAbort() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        // The preinst holds dpkg inside lab-a until the test has asked to stop (at most 10 minutes),
        // where a fixed `sleep 3` would let a slow machine finish lab-a before the abort.
        try apt.publish(Self.packages(preinst: """
            mkdir -p "$DPKG_ROOT/tmp"
            touch "$DPKG_ROOT/tmp/started-a"
            i=0
            while [ ! -e "$DPKG_ROOT/tmp/release-a" ] && [ $i -lt 6000 ]; do sleep 0.1; i=$((i+1)); done
            """))
        let run = try APTJobRun(PackageJob(request: .install(["lab-a", "lab-b", "lab-c"]), aptConfig: apt.configuration))
        #expect(run.plan.changes.map(\.package).first == "lab-a")
        let a = try run.index(of: "lab-a")
        try #require(await eventually { FileManager.default.fileExists(atPath: apt.root + "/tmp/started-a") }, "lab-a's preinst never ran")
        // Every file is downloaded by now, but dpkg is on lab-a alone: the others wait, with no
        // clock and no bar, and lab-a is the one running (once apt's line saying so is read: the
        // preinst's marker can come first).
        try #require(await eventually { run.state?.runningIndex == a }, "\(String(describing: run.state))")
        let waiting = try #require(run.state)
        for name in ["lab-b", "lab-c"] {
            let update = waiting.updates[try run.index(of: name)]
            #expect(update.result.resultCode == .notStarted && update.startedAt == nil && update.percent == nil, "\(name): \(update)")
        }

        try run.queue.abort(job: run.id)
        // The message is shown as SIGINT goes to apt-get: once it is there, apt knows.
        try #require(await eventually { run.messages(of: a).contains { $0.hasPrefix(Self.stopping) } }, "\(run.messages(of: a))")
        try Data().write(to: URL(fileURLWithPath: apt.root + "/tmp/release-a"))
        let job = try await run.completion()

        #expect(job.result?.resultCode == .aborted)
        #expect(job.updates[a].result.resultCode == .succeeded, "the running package keeps its real result: \(job.updates[a].result.reason ?? "")")
        for name in ["lab-b", "lab-c"] {
            let result = job.updates[try run.index(of: name)].result
            #expect(result.resultCode == .aborted && result.hResult == .callCancelled, "\(name): \(result.resultCode) \(result.reason ?? "")")
            #expect(job.updates[try run.index(of: name)].percent == nil, "\(name) was never touched by dpkg: no bar")
        }
        let states = try apt.states()
        #expect(states["lab-a"]?.status == "ii")
        #expect(states["lab-b"] == nil && states["lab-c"] == nil, "\(states)")
        #expect(try apt.audit().isEmpty)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("Abort, then force, during a 10-minute preinst: apt, dpkg and the script are killed at once, dpkg is repaired, the cut package says what was left")
    func forcedAbort() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        // Only the first run sleeps: the repair reinstalls lab-a and runs this preinst again.
        // The shell's and the sleep's pids are written down so the test can see them gone.
        try apt.publish(Self.packages(preinst: """
            mkdir -p "$DPKG_ROOT/tmp"
            if [ ! -e "$DPKG_ROOT/tmp/started-a" ]; then
                sleep 600 &
                echo "$$ $!" > "$DPKG_ROOT/tmp/started-a.new"
                mv "$DPKG_ROOT/tmp/started-a.new" "$DPKG_ROOT/tmp/started-a"
                wait $!
            fi
            """))
        let run = try APTJobRun(PackageJob(request: .install(["lab-a", "lab-b", "lab-c"]), aptConfig: apt.configuration))
        let a = try run.index(of: "lab-a")
        let marker = apt.root + "/tmp/started-a"
        try #require(await eventually { FileManager.default.fileExists(atPath: marker) }, "lab-a's preinst never ran")
        let scriptPIDs = try String(contentsOfFile: marker, encoding: .utf8).split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(scriptPIDs.count == 2)

        try run.queue.abort(job: run.id)
        try #require(await eventually { run.messages(of: a).contains { $0.hasPrefix(Self.stopping) } }, "\(run.messages(of: a))")
        let forcedAt = ContinuousClock.now
        try run.queue.abort(job: run.id, force: true)
        let job = try await run.completion()
        let took = ContinuousClock.now - forcedAt

        // Killed, not waited for: the preinst had about 10 minutes left (a bound far from both
        // the repair's few seconds under load and the wait it would be).
        #expect(took < .seconds(300), "the forced abort took \(took)")
        #expect(job.abortForced)
        let killedLine = run.output(of: a).first { $0.hasPrefix("installtop: killed apt-get") }
        let killed = Self.pids(in: killedLine ?? "")
        #expect(!killed.isEmpty, "no 'killed' line naming dpkg: \(run.output(of: a))")
        for pid in killed + scriptPIDs {
            #expect(!Self.isRunning(pid), "process \(pid) survived the forced abort")
        }
        let left = try TestCommand.run(["/usr/bin/pgrep", "-af", apt.root])
        #expect(left.stdout.isEmpty, "processes still working in the root: \(left.stdout)")

        #expect(job.result?.resultCode == .aborted)
        let cut = job.updates[a].result
        let reason = cut.reason ?? ""
        // The repair completed it: its result is dpkg's, from the state after the repair.
        #expect(cut.resultCode == .succeeded, "\(cut.resultCode) \(cut.hResult) \(reason)")
        #expect(reason.hasPrefix("completed by the repair after the forced stop, which cut it") && reason.contains("dpkg --configure -a"), "\(reason)")
        // dpkg leaves a package cut in its preinst half-installed (iHR), which configure -a
        // does not repair (Documentation/PACKAGE-FACTS.md), nor `apt-get -f install` when the version it was
        // installing is the one apt would fetch; the driver then reinstalls it. What was left
        // is in the reason, with the audit's word, and it must match the root as the test finds it.
        let states = try apt.states()
        let audit = try apt.audit()
        #expect(reason.contains("apt-get -f --reinstall install lab-a ran"), "\(reason)")
        // The repair's steps show their output line by line (dpkg's lines under apt end in "\r\n").
        #expect(run.output(of: a).contains("Setting up lab-a (1.0) ..."), "\(run.output(of: a))")
        // Both states, each named as what it is: the kill's and the repair's.
        #expect(states["lab-a"]?.status == "ii"
                && reason.contains("dpkg had it half-installed at 1.0 (iHR) right after the kill, installed at 1.0 after the repair"),
                "\(String(describing: states["lab-a"])): \(reason)")
        #expect(audit.isEmpty && reason.hasSuffix("repaired: dpkg --audit is clean, apt-get check passes"), "audit: \(audit); reason: \(reason)")
        for name in ["lab-b", "lab-c"] {
            let result = job.updates[try run.index(of: name)].result
            #expect(result.resultCode == .aborted && result.hResult == .callCancelled, "\(name): \(result.resultCode) \(result.reason ?? "")")
            #expect(states[name] == nil, "\(name) was touched: \(String(describing: states[name]))")
        }
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    /// The pids in `installtop: killed apt-get, dpkg (123), sh (456), …`.
    private static func pids(in line: String) -> [Int32] {
        line.split(separator: "(").dropFirst().compactMap { Int32($0.prefix { $0.isNumber }) }
    }

    /// Whether `pid` is alive: a zombie (killed, waiting for its new parent to reap it) is not.
    private static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let state = ProcessStat.state(of: pid) else { return false }
        return state != "Z"
    }
}
