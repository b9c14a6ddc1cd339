import APTTestSupport
import Foundation
import InstallDrivers
import InstallEngine
import Testing
import TestProcessSupport

/// The safe point between dpkg's archives (`DpkgArchiveGate`, rule 24) on real apt and dpkg in
/// a private root: apt hands dpkg its archives in batches, and a stop keeps dpkg from the next
/// archive only where everything unpacked so far can be configured; what the stop leaves
/// unconfigured, installtop configures.
///
/// Each stop lands while dpkg is inside a preinst that waits for the test (a marker file), never
/// by timing.
@Suite("apt: the safe point between dpkg's archives", .serialized)
struct APTArchiveGateTests {
    /// A preinst that writes `$DPKG_ROOT/tmp/started-PACKAGE` and waits (at most 10 minutes)
    /// until `$DPKG_ROOT/tmp/release` exists.
    static let heldPreinst = """
        mkdir -p "$DPKG_ROOT/tmp"
        touch "$DPKG_ROOT/tmp/started-$DPKG_MAINTSCRIPT_PACKAGE"
        i=0
        while [ ! -e "$DPKG_ROOT/tmp/release" ] && [ $i -lt 6000 ]; do sleep 0.1; i=$((i+1)); done
        """

    /// Waits until a preinst of `names` has started, asks the job to stop, waits until apt was
    /// told, lets the preinst go on, and returns the job at its end with the package that held.
    static func stopWhileHeld(_ run: APTJobRun, in apt: APTTestRoot, among names: [String]) async throws -> (JobState, String) {
        var held: String?
        try #require(await eventually {
            held = names.first { FileManager.default.fileExists(atPath: apt.root + "/tmp/started-" + $0) }
            return held != nil
        }, "no preinst of \(names) ran")
        let holder = try #require(held)
        try run.queue.abort(job: run.id)
        let index = try run.index(of: holder)
        try #require(await eventually { run.messages(of: index).contains { $0.hasPrefix("stopping after this package") } }, "\(run.messages(of: index))")
        try Data().write(to: URL(fileURLWithPath: apt.root + "/tmp/release"))
        return (try await run.completion(), holder)
    }

    @Test("A stop inside a dependency cycle: dpkg is given the other half of the cycle, then nothing more; both configured, the rest untouched")
    func stopWaitsForAConfigurablePoint() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([
            TestPackage(name: "lab-a", depends: "lab-b", preinst: Self.heldPreinst),
            TestPackage(name: "lab-b", depends: "lab-a", preinst: Self.heldPreinst),
            TestPackage(name: "lab-c", depends: "lab-a, lab-b"),
        ])
        let run = try APTJobRun(PackageJob(request: .install(["lab-a", "lab-b", "lab-c"]), aptConfig: apt.configuration))
        #expect(run.plan.changes.last?.package == "lab-c", "\(run.plan.changes.map(\.package))")
        let (job, _) = try await Self.stopWhileHeld(run, in: apt, among: ["lab-a", "lab-b"])

        let results = job.updates.map { "\($0.update.id): \($0.result.resultCode) \($0.result.reason ?? "")" }
        // Stopping after the first half of the cycle would leave it unpacked and unconfigurable:
        // the gate let the second half through and stopped before lab-c.
        let states = try apt.states()
        #expect(states["lab-a"]?.status == "ii" && states["lab-b"]?.status == "ii", "\(states); \(results)")
        #expect(states["lab-c"] == nil, "\(states)")
        for name in ["lab-a", "lab-b"] {
            #expect(job.updates[try run.index(of: name)].result.resultCode == .succeeded, "\(results)")
        }
        let c = job.updates[try run.index(of: "lab-c")]
        #expect(c.result.resultCode == .aborted && c.result.hResult == .callCancelled && c.percent == nil, "\(results)")
        #expect(job.result?.resultCode == .aborted && job.result?.ignoredLines == 0, "\(String(describing: job.result))")
        let output = try run.output(of: run.index(of: "lab-a")) + run.output(of: run.index(of: "lab-b"))
        #expect(output.contains(DpkgArchiveGate.refusalNotice), "the gate never refused: \(output)")
        #expect(try apt.audit().isEmpty)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("A stop in an earlier batch than apt's last: apt stops before its last configuration, installtop configures what it left unpacked")
    func stopLeavesUnpackedPackagesToInstalltop() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        // lab-late pre-depends on lab-base: apt unpacks and configures lab-base in runs of its
        // own before it unpacks lab-x and lab-late; its last run would configure lab-x.
        try apt.publish([
            TestPackage(name: "lab-base"),
            TestPackage(name: "lab-x", preinst: Self.heldPreinst),
            TestPackage(name: "lab-late", depends: "lab-x", preDepends: "lab-base"),
        ])
        let run = try APTJobRun(PackageJob(request: .install(["lab-x", "lab-late"]), aptConfig: apt.configuration))
        let (job, _) = try await Self.stopWhileHeld(run, in: apt, among: ["lab-x"])

        let results = job.updates.map { "\($0.update.id): \($0.result.resultCode) \($0.result.reason ?? "")" }
        let states = try apt.states()
        #expect(states["lab-x"]?.status == "ii", "\(states); \(results)")
        #expect(states["lab-late"] == nil, "\(states)")
        let x = try run.index(of: "lab-x")
        #expect(job.updates[x].result.resultCode == .succeeded, "\(results)")
        // dpkg had work left (lab-x unpacked, never configured by apt), which it did.
        #expect(run.jobMessages().suffix(2) == ["finishing what the stop left pending: dpkg --configure --pending …",
                                                "what the stop left pending is done: dpkg is consistent (dpkg --audit is clean, apt-get check passes)"],
                "\(run.jobMessages())")
        // The step is shown once: on the last package apt finished (lab-base, configured before
        // lab-late's unpack) while its verdict is still held back, which then carries it; when
        // dpkg's output had already moved on to lab-x before apt ended (which of apt's two
        // pipes is read first decides that), lab-base's verdict was given and the step is
        // shown on lab-x, the package the stop left unpacked, which it configures.
        let base = try run.index(of: "lab-base")
        let step = ["installtop: finishing what the stop left pending: dpkg --configure --pending", "Setting up lab-x (1.0) ...",
                    "installtop: what the stop left pending is done: dpkg is consistent (dpkg --audit is clean, apt-get check passes)"]
        let shownOn = run.plan.changes.indices.filter { run.output(of: $0).contains(step[0]) }
        #expect(shownOn == [base] || shownOn == [x], "\(run.plan.changes.indices.map { run.output(of: $0) })")
        if let target = shownOn.first {
            #expect(Array(run.output(of: target).suffix(3)) == step, "\(run.output(of: target))")
        }
        if shownOn == [base] {
            #expect(job.updates[base].result.reason?.hasSuffix("the job stopped after it, as asked; dpkg --configure --pending ran; "
                                                                + "what the stop left pending is done: dpkg is consistent (dpkg --audit is clean, apt-get check passes)") == true,
                    "\(results)")
        }
        let late = job.updates[try run.index(of: "lab-late")]
        #expect(late.result.resultCode == .aborted && late.result.hResult == .callCancelled, "\(results)")
        #expect(job.result?.resultCode == .aborted && job.result?.ignoredLines == 0, "\(String(describing: job.result))")
        #expect(try apt.audit().isEmpty)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("A stop between an exact-version pair in one dpkg run: the half that needs the other at its version is unpacked first, so the other passes the gate with it; the rest is untouched, apt's dependencies hold")
    func stopKeepsAnExactVersionPairTogether() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        // lab-utils needs lab-core at its own version (apt and apt-utils), lab-extra comes last.
        func lab(_ version: String, held: Bool) -> [TestPackage] {
            [
                TestPackage(name: "lab-core", version: version, preinst: held ? Self.heldPreinst : nil),
                TestPackage(name: "lab-utils", version: version, depends: "lab-core (= \(version))", preinst: held ? Self.heldPreinst : nil),
                TestPackage(name: "lab-extra", version: version, depends: "lab-utils (>= \(version))"),
            ]
        }
        try apt.publish(lab("1.0", held: false))
        try apt.aptGet(["install", "-y", "lab-extra"], check: true)
        try apt.publish(lab("2.0", held: true))
        let run = try APTJobRun(PackageJob(request: .upgrade, aptConfig: apt.configuration))
        #expect(run.plan.changes.last?.package == "lab-extra", "\(run.plan.changes.map(\.package))")
        // The stop lands in the pair's first preinst, whichever apt orders first.
        let (job, _) = try await Self.stopWhileHeld(run, in: apt, among: ["lab-core", "lab-utils"])

        let results = job.updates.map { "\($0.update.id): \($0.result.resultCode) \($0.result.reason ?? "")" }
        let states = try apt.states()
        #expect(states["lab-core"]?.version == "2.0" && states["lab-utils"]?.version == "2.0", "\(states); \(results)")
        #expect(states["lab-core"]?.status == "ii" && states["lab-utils"]?.status == "ii", "\(states); \(results)")
        #expect(states["lab-extra"]?.version == "1.0" && states["lab-extra"]?.status == "ii", "\(states); \(results)")
        for name in ["lab-core", "lab-utils"] {
            #expect(job.updates[try run.index(of: name)].result.resultCode == .succeeded, "\(results)")
        }
        let extra = job.updates[try run.index(of: "lab-extra")].result
        #expect(extra.resultCode == .aborted && extra.hResult == .callCancelled, "\(results)")
        #expect(job.updates.allSatisfy { $0.result.hResult != .systemLeftBroken }, "\(results)")
        #expect(job.result?.resultCode == .aborted, "\(String(describing: job.result))")
        #expect(try apt.aptGet(["check"]).status == 0, "apt's dependencies hold")
        #expect(try apt.audit().isEmpty)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }
}
