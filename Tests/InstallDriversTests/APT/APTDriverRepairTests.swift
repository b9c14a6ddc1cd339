import APTTestSupport
import Foundation
import InstallDrivers
import InstallEngine
import Testing
import TestProcessSupport

/// The repair after a forced apt abort on the shape that broke dpkg for real (issue 18: an
/// openjdk upgrade): a runtime and a kit that depends on it `(= V)`, both installed at 1.0, then
/// an upgrade of both to 2.0 cut by a forced abort in the runtime's preinst, in its postinst,
/// or in trigger processing. Afterwards dpkg's audit is empty and `apt-get check` passes in the
/// root, and the results say so; a repair that cannot succeed says dpkg is left broken, with the
/// command that fixes it. Also: after a graceful stop installtop finishes what it left pending.
///
/// Each cut lands by a marker file the maintainer script writes before it waits (polled with
/// a deadline), never by timing; scripts wait only on their first run, so the repair's run of
/// the same script goes through.
@Suite("apt: repairing after an abort", .serialized)
struct APTDriverRepairTests {
    /// A shell snippet: on its first run, writes `$DPKG_ROOT/tmp/MARKER` and waits 10 minutes
    /// (the forced abort kills it; under a loaded CI run a minute's wait once ran out before the
    /// abort came, and the kill then landed in trigger processing); on later runs, does nothing.
    static func holdOnce(_ marker: String) -> String {
        """
        mkdir -p "$DPKG_ROOT/tmp"
        if [ ! -e "$DPKG_ROOT/tmp/\(marker)" ]; then
            touch "$DPKG_ROOT/tmp/\(marker)"
            sleep 600 &
            wait $!
        fi
        """
    }

    static func runtime(_ version: String, preinst: String? = nil, postinst: String? = nil, triggers: String? = nil) -> TestPackage {
        TestPackage(name: "lab-rt", version: version, preinst: preinst, postinst: postinst, triggers: triggers)
    }

    static func kit(_ version: String) -> TestPackage {
        TestPackage(name: "lab-kit", version: version, depends: "lab-rt (= \(version))")
    }

    /// A package interested in the trigger `lab-trigger`: its postinst, run `triggered`, waits
    /// once on `trigger-held` and writes `trigger-ran` whenever it completes.
    static let interested = TestPackage(name: "lab-trig", postinst: """
        if [ "$1" = triggered ]; then
        \(holdOnce("trigger-held"))
            touch "$DPKG_ROOT/tmp/trigger-ran"
        fi
        """, triggers: "interest lab-trigger")

    /// A root with the runtime, the kit (and `also`) installed at 1.0, then `upgrade`
    /// published; the job upgrading the runtime and the kit, started.
    /// `configuration` makes lines added to the root's apt configuration before the job starts.
    static func upgrade(to packages: [TestPackage], also: [TestPackage] = [],
                        configuration: (APTTestRoot) -> String = { _ in "" }) throws -> (APTTestRoot, APTJobRun) {
        let apt = try APTTestRoot()
        do {
            try apt.publish([runtime("1.0"), kit("1.0")] + also)
            try apt.aptGet(["-y", "install", "lab-rt", "lab-kit"] + also.map(\.name), check: true)
            // The archive moved on, as Debian's does: 1.0 can no longer be fetched, so no
            // repair can go back to it.
            for name in ["lab-rt", "lab-kit"] { try FileManager.default.removeItem(atPath: "\(apt.repository)/\(name)_1.0_all.deb") }
            try apt.publish(packages)
            let lines = configuration(apt)
            if !lines.isEmpty {
                let file = try #require(FileHandle(forWritingAtPath: apt.configuration))
                try file.seekToEnd()
                try file.write(contentsOf: Data((lines + "\n").utf8))
                try file.close()
            }
            return (apt, try APTJobRun(PackageJob(request: .install(["lab-rt", "lab-kit"]), aptConfig: apt.configuration)))
        } catch {
            apt.remove()
            throw error
        }
    }

    /// Waits for `marker` under the root's `tmp`, forces the abort, and returns the job.
    static func forceAbort(_ run: APTJobRun, in apt: APTTestRoot, at marker: String) async throws -> JobState {
        try #require(await eventually { FileManager.default.fileExists(atPath: apt.root + "/tmp/" + marker) }, "\(marker) never appeared")
        try run.queue.abort(job: run.id, force: true)
        return try await run.completion()
    }

    /// The root is consistent: nothing in `dpkg --audit`, `apt-get check` passes, both
    /// packages installed at 2.0 (the repair finished the upgrade the kit's `(= V)` needs).
    static func expectRepaired(_ apt: APTTestRoot, _ job: JobState) throws {
        let results = job.updates.map { "\($0.update.id): \($0.result.resultCode) \($0.result.reason ?? "")" }
        let audit = try apt.audit()
        #expect(audit.isEmpty, "dpkg --audit: \(audit)")
        // Without apt's cache file, which may predate the repair.
        let check = try apt.aptGet(["check", "-o", "Dir::Cache::pkgcache=", "-o", "Dir::Cache::srcpkgcache="])
        #expect(check.status == 0, "apt-get check: \(check.stdout) \(check.stderr)")
        let states = try apt.states()
        for name in ["lab-rt", "lab-kit"] {
            #expect(states[name]?.status == "ii" && states[name]?.version == "2.0", "\(name): \(String(describing: states[name])); \(results)")
        }
    }

    /// Every repair step shows on the update the repair was shown on: its status text, the
    /// step's own log line, and the verdict's.
    static func expectVisibleRepair(_ run: APTJobRun, on index: Int) {
        let messages = run.messages(of: index)
        let output = run.output(of: index)
        #expect(messages.contains { $0.hasPrefix("repairing: dpkg --configure -a") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("repaired: dpkg --audit is clean, apt-get check passes") }, "\(messages)")
        #expect(output.contains("installtop: repairing: dpkg --configure -a"), "\(output)")
        #expect(output.contains("installtop: repaired: dpkg --audit is clean, apt-get check passes"), "\(output)")
    }

    @Test("Forced abort in the runtime's preinst: apt-get -f install finishes the exact-version upgrade; audit clean, check passes")
    func cutInPreinst() async throws {
        let host = HostPackageFingerprint()
        let (apt, run) = try Self.upgrade(to: [Self.runtime("2.0", preinst: Self.holdOnce("held")), Self.kit("2.0")])
        defer { apt.remove() }
        let job = try await Self.forceAbort(run, in: apt, at: "held")

        let rt = try run.index(of: "lab-rt")
        let result = job.updates[rt].result
        let reason = result.reason ?? ""
        // The repair completed the cut runtime: its result is dpkg's, and it keeps apart the
        // state the kill left and the state after the repair. apt hands dpkg both archives in
        // one run, the kit's first: the kit, unpacked at 2.0, cannot be configured before the
        // runtime is, so dpkg --configure -a fails and apt-get -f install finishes both.
        #expect(result.resultCode == .succeeded && result.hResult == .ok, "\(result.resultCode) \(result.hResult)")
        #expect(reason.hasPrefix("completed by the repair after the forced stop, which cut it: dpkg had it half-installed at 1.0 (iHR) "
                                 + "right after the kill, installed at 2.0 after the repair; ")
                && reason.contains("dpkg --configure -a exited with status 1, then apt-get -f install ran") && reason.hasSuffix("repaired: dpkg --audit is clean, apt-get check passes"), "\(reason)")
        #expect(!reason.contains("--reinstall install lab-rt"), "the runtime alone cannot be reinstalled: \(reason)")
        Self.expectVisibleRepair(run, on: rt)
        try Self.expectRepaired(apt, job)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("Abort, then force, in the runtime's preinst: the repair completes the kit dpkg had unpacked before it too, and every result is dpkg's")
    func repairCompletesMoreThanTheCutPackage() async throws {
        let host = HostPackageFingerprint()
        let (apt, run) = try Self.upgrade(to: [Self.runtime("2.0", preinst: Self.holdOnce("held")), Self.kit("2.0")])
        defer { apt.remove() }
        try #require(await eventually { FileManager.default.fileExists(atPath: apt.root + "/tmp/held") }, "lab-rt's preinst never ran")
        let rt = try run.index(of: "lab-rt")
        let kit = try run.index(of: "lab-kit")
        // The operator's first `a` (apt finishes the package it is on), then the second (kill).
        try run.queue.abort(job: run.id)
        try #require(await eventually { run.messages(of: rt).contains { $0.hasPrefix("stopping after this package") } }, "\(run.messages(of: rt))")
        try run.queue.abort(job: run.id, force: true)
        let job = try await run.completion()

        try Self.expectRepaired(apt, job)
        let rtResult = job.updates[rt].result
        #expect(rtResult.resultCode == .succeeded && (rtResult.reason ?? "").hasPrefix(
            "completed by the repair after the forced stop, which cut it: dpkg had it half-installed at 1.0 (iHR) right after the kill, installed at 2.0 after the repair; "),
            "\(rtResult.resultCode) \(rtResult.reason ?? "")")
        // dpkg unpacked the kit in the same run before the runtime (the gate did not stop it
        // there: the kit at 2.0 cannot be configured without the runtime at 2.0); the kill left
        // it unpacked, and the repair's apt-get -f install configured it. Its result is dpkg's.
        let kitResult = job.updates[kit].result
        #expect(kitResult.resultCode == .succeeded && (kitResult.reason ?? "").hasPrefix(
            "completed by the repair after the forced stop, which cut it: dpkg had it unpacked but not configured at 2.0 (iU) right after the kill, installed at 2.0 after the repair; "),
            "\(kitResult.resultCode) \(kitResult.reason ?? "")")
        #expect(job.result?.resultCode == .aborted, "the job was still aborted")
        #expect(run.output(of: rt).contains("installtop: right after the kill dpkg had lab-kit unpacked but not configured at 2.0 (iU), lab-rt half-installed at 1.0 (iHR)"),
                "\(run.output(of: rt))")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("Forced abort in the runtime's postinst: configure -a, then the kit follows; audit clean, check passes")
    func cutInPostinst() async throws {
        let host = HostPackageFingerprint()
        let (apt, run) = try Self.upgrade(to: [Self.runtime("2.0", postinst: Self.holdOnce("held")), Self.kit("2.0")])
        defer { apt.remove() }
        let job = try await Self.forceAbort(run, in: apt, at: "held")

        let rt = try run.index(of: "lab-rt")
        let reason = job.updates[rt].result.reason ?? ""
        #expect(job.updates[rt].result.resultCode == .succeeded, "\(job.updates[rt].result)")
        #expect(reason.hasPrefix("completed by the repair after the forced stop, which cut it: dpkg had it half-configured at 2.0 (iF) right after the kill, "
                                 + "installed at 2.0 after the repair; ") && reason.contains("dpkg --configure -a ran")
                && reason.hasSuffix("repaired: dpkg --audit is clean, apt-get check passes"), "\(reason)")
        Self.expectVisibleRepair(run, on: rt)
        try Self.expectRepaired(apt, job)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("Forced abort in trigger processing: the repair is said on the package apt was last on; audit clean, check passes")
    func cutInTriggers() async throws {
        let host = HostPackageFingerprint()
        let (apt, run) = try Self.upgrade(to: [Self.runtime("2.0", triggers: "activate lab-trigger"), Self.kit("2.0")], also: [Self.interested])
        defer { apt.remove() }
        let job = try await Self.forceAbort(run, in: apt, at: "trigger-held")

        let repaired = job.updates.indices.filter { (job.updates[$0].result.reason ?? "").contains("repaired: dpkg --audit is clean") }
        #expect(repaired.count == 1, "\(job.updates.map { "\($0.update.id): \($0.result.resultCode) \($0.result.reason ?? "")" })")
        for index in repaired {
            #expect((job.updates[index].result.reason ?? "").contains("dpkg --configure -a ran"), "\(job.updates[index].result)")
            Self.expectVisibleRepair(run, on: index)
        }
        // The kill landed in trigger processing: the job itself says each step, and its
        // outcome stays said.
        let said = run.jobMessages()
        #expect(said.contains("repairing: dpkg --configure -a …"), "\(said)")
        #expect(job.jobMessage == "repaired: dpkg --audit is clean, apt-get check passes", "\(said)")
        // dpkg --configure -a configures the interested package again, which settles its
        // pending trigger (dpkg runs its postinst `configure`, not `triggered`).
        let interested = try apt.states()["lab-trig"]
        #expect(interested?.status == "ii", "\(String(describing: interested))")
        try Self.expectRepaired(apt, job)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("Forced abort before dpkg began (apt in its Pre-Invoke hook): nothing cut or held; the job says the repair, every package is left at 1.0")
    func forcedBeforeDpkg() async throws {
        let host = HostPackageFingerprint()
        // apt runs DPkg::Pre-Invoke after its downloads and before its first dpkg run: a kill
        // there finds no package in flight and no finished one whose verdict is held back.
        // Held on its first run only (apt.conf's strings cannot hold a double quote).
        let (apt, run) = try Self.upgrade(to: [Self.runtime("2.0"), Self.kit("2.0")]) { apt in
            let marker = apt.root + "/tmp/pre-invoke"
            return "DPkg::Pre-Invoke:: \"mkdir -p \(apt.root)/tmp; if [ ! -e \(marker) ]; then touch \(marker); sleep 600; fi\";"
        }
        defer { apt.remove() }
        let job = try await Self.forceAbort(run, in: apt, at: "pre-invoke")

        let results = job.updates.map { "\($0.update.id): \($0.result.resultCode) \($0.result.reason ?? "")" }
        for update in job.updates {
            #expect(update.result.resultCode == .aborted && update.result.hResult == .callCancelled, "\(results)")
            #expect(!(update.result.reason ?? "").contains("cut by a forced abort"), "\(results)")
        }
        // No update to show it on: the job itself says each step, and its outcome stays said.
        let said = run.jobMessages()
        #expect(said.contains("repairing: dpkg --configure -a …"), "\(said)")
        #expect(job.jobMessage == "repaired: dpkg --audit is clean, apt-get check passes", "\(said)")
        #expect(try apt.audit().isEmpty)
        let states = try apt.states()
        for name in ["lab-rt", "lab-kit"] {
            #expect(states[name]?.status == "ii" && states[name]?.version == "1.0", "\(name): \(String(describing: states[name]))")
        }
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("A repair that cannot succeed: the cut package says dpkg is left broken, with the command that fixes it")
    func repairFails() async throws {
        let host = HostPackageFingerprint()
        let (apt, run) = try Self.upgrade(to: [Self.runtime("2.0", preinst: Self.holdOnce("held"), postinst: Self.failsOnceHeld), Self.kit("2.0")])
        defer { apt.remove() }
        let job = try await Self.forceAbort(run, in: apt, at: "held")

        let rt = try run.index(of: "lab-rt")
        let result = job.updates[rt].result
        let reason = result.reason ?? ""
        #expect(result.resultCode == .aborted && result.hResult == .systemLeftBroken, "\(result.resultCode) \(result.hResult)")
        // Front-loaded: the monitor's status column shows the start of a reason.
        #expect(reason.hasPrefix("dpkg is left broken: run `APT_CONFIG=\(apt.configuration) apt-get -f --reinstall install lab-kit lab-rt` to repair it; "), "\(reason)")
        #expect(reason.contains("dpkg --audit lists problems (lab-kit unpacked but not configured at 2.0 (iU), lab-rt half-configured at 2.0 (iF))")
                && reason.contains("cut by a forced abort"), "\(reason)")
        #expect(run.messages(of: rt).last?.hasPrefix("dpkg is left broken:") == true, "\(run.messages(of: rt))")
        #expect(!(try apt.audit()).isEmpty, "the root was not left broken: the test proves nothing")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    /// A postinst that fails for ever once the preinst was held (and so cut): no repair can
    /// configure the package.
    static let failsOnceHeld = """
        if [ -e "$DPKG_ROOT/tmp/held" ]; then echo "lab-rt: cannot start after an interruption" >&2; exit 1; fi
        """

    @Test("Graceful stop after a package that activates a trigger: apt's own last run configures it and runs the trigger, installtop's visible check finds nothing left")
    func gracefulStopRunsTriggers() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let quiet = TestPackage(name: "lab-trig", postinst: """
            if [ "$1" = triggered ]; then mkdir -p "$DPKG_ROOT/tmp"; touch "$DPKG_ROOT/tmp/trigger-ran"; fi
            """, triggers: "interest lab-trigger")
        try apt.publish([quiet])
        try apt.aptGet(["-y", "install", "lab-trig"], check: true)
        try apt.publish([
            TestPackage(name: "lab-x", preinst: """
                mkdir -p "$DPKG_ROOT/tmp"
                touch "$DPKG_ROOT/tmp/started-x"
                i=0
                while [ ! -e "$DPKG_ROOT/tmp/release-x" ] && [ $i -lt 6000 ]; do sleep 0.1; i=$((i+1)); done
                """, triggers: "activate-noawait lab-trigger"),
            TestPackage(name: "lab-y", depends: "lab-x"),
        ])
        let run = try APTJobRun(PackageJob(request: .install(["lab-x", "lab-y"]), aptConfig: apt.configuration))
        let x = try run.index(of: "lab-x")
        try #require(await eventually { FileManager.default.fileExists(atPath: apt.root + "/tmp/started-x") }, "lab-x's preinst never ran")
        try run.queue.abort(job: run.id)
        try #require(await eventually { run.messages(of: x).contains { $0.hasPrefix("stopping after this package") } }, "\(run.messages(of: x))")
        try Data().write(to: URL(fileURLWithPath: apt.root + "/tmp/release-x"))
        let job = try await run.completion()

        let result = job.updates[x].result
        #expect(result.resultCode == .succeeded, "\(result)")
        // The gate kept dpkg from lab-y's archive; apt's last `dpkg --configure --pending`
        // configured lab-x and ran the trigger; installtop's own run then found nothing left.
        // Nothing was broken, so nothing says it was repaired.
        #expect((result.reason ?? "").hasSuffix("the job stopped after it, as asked; dpkg --configure --pending ran; "
                                                + "nothing was left pending: dpkg is consistent (dpkg --audit is clean, apt-get check passes)"),
                "\(result.reason ?? "")")
        let output = run.output(of: x)
        #expect(output.contains(DpkgArchiveGate.refusalNotice), "\(output)")
        #expect(output.contains("installtop: finishing what the stop left pending: dpkg --configure --pending"), "\(output)")
        #expect(run.messages(of: x).last == "nothing was left pending: dpkg is consistent (dpkg --audit is clean, apt-get check passes)", "\(run.messages(of: x))")
        #expect(!(run.messages(of: x) + run.jobMessages() + [result.reason ?? ""]).contains { $0.contains("repair") }, "\(run.messages(of: x))")
        #expect(run.jobMessages().suffix(2) == ["finishing what the stop left pending: dpkg --configure --pending …",
                                                "nothing was left pending: dpkg is consistent (dpkg --audit is clean, apt-get check passes)"],
                "the step and its outcome are the job's too, after the download status: \(run.jobMessages())")
        let y = try run.index(of: "lab-y")
        #expect(job.updates[y].result.resultCode == .aborted && job.updates[y].result.hResult == .callCancelled && job.updates[y].percent == nil,
                "\(job.updates[y].result)")
        #expect(job.result?.ignoredLines == 0, "dpkg's errors for the archives the gate left are the stop's, not ignored lines")
        #expect(FileManager.default.fileExists(atPath: apt.root + "/tmp/trigger-ran"), "the pending trigger never ran")
        let audit = try apt.audit()
        #expect(audit.isEmpty, "dpkg --audit: \(audit)")
        #expect(try apt.states()["lab-y"] == nil)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }
}
