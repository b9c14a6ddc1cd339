import EngineWire
import Foundation
import InstallDrivers
import RestartScan
import Testing

/// The pending snapshot out of apt's words: the upgrade's packages and origins, the held-back
/// reasons, the summary and the JSON (values only, no process).
@Suite("pending: reading apt's words")
struct PendingParsingTests {
    @Test("Inst lines give name, versions, origin and architecture; security by suite; Conf lines and notes skipped")
    func upgradeLines() {
        let output = """
            Reading package lists...
            The following packages will be upgraded:
              lab-app libssl3
            Inst lab-app [1.0] (2.0 localhost [all])
            Inst libssl3:amd64 [3.0.14-1~deb12u1] (3.0.15-1~deb12u1 Debian:12.8/stable, Debian-Security:12/stable-security [amd64])
            Inst tzdata [2024a-0+deb12u1] (2025a-0+deb12u1 Debian:12.9/stable-updates [all])
            Inst lab-two [1.0] (2.0 Ubuntu:22.04/jammy-security)
            Conf lab-app (2.0 localhost [all])
            """
        let packages = APTSimulation.pendingPackages(from: output)
        #expect(packages == [
            PendingPackage(name: "lab-app", oldVersion: "1.0", newVersion: "2.0", origin: "localhost", architecture: "all"),
            PendingPackage(name: "libssl3", oldVersion: "3.0.14-1~deb12u1", newVersion: "3.0.15-1~deb12u1",
                           origin: "Debian:12.8/stable, Debian-Security:12/stable-security", architecture: "amd64"),
            PendingPackage(name: "tzdata", oldVersion: "2024a-0+deb12u1", newVersion: "2025a-0+deb12u1", origin: "Debian:12.9/stable-updates",
                           architecture: "all"),
            PendingPackage(name: "lab-two", oldVersion: "1.0", newVersion: "2.0", origin: "Ubuntu:22.04/jammy-security"),
        ])
        #expect(packages.map(\.isSecurity) == [false, true, false, true])
        #expect(!PendingPackage.isSecurity(origin: "Debian:12/stable-updates"), "updates are not security")
        #expect(PendingPackage.isSecurity(origin: "Debian-Security:12/bookworm"), "the label says it too")
    }

    @Test("apt-cache policy: installed, candidate, the table newest first, phasing")
    func policy() throws {
        let output = """
            lab-app:
              Installed: 1.0
              Candidate: 2.0
              Version table:
                 2.0 500 (phased 40%)
                    500 file:/srv/repo ./ Packages
             *** 1.0 100
                    100 /srv/root/var/lib/dpkg/status
            lab-pinned:
              Installed: 1.0
              Candidate: 1.0
              Version table:
                 2.0 500
                    500 file:/srv/repo ./ Packages
             *** 1.0 1001
                    500 file:/srv/repo ./ Packages
            lab-gone:
              Installed: (none)
              Candidate: 1.0
              Version table:
                 1.0 500
                    500 file:/srv/repo ./ Packages
            """
        let entries = APTPolicy.entries(from: output)
        let app = try #require(entries["lab-app"])
        #expect(app.installed == "1.0" && app.candidate == "2.0" && app.newest == "2.0")
        #expect(app.isUpgradable && !app.isPinned && app.candidatePhasedPercentage == 40)
        let pinned = try #require(entries["lab-pinned"])
        #expect(pinned.isPinned && !pinned.isUpgradable && pinned.versions.map(\.version) == ["2.0", "1.0"])
        let gone = try #require(entries["lab-gone"])
        #expect(gone.installed == nil && !gone.isUpgradable && !gone.isPinned)
    }

    @Test("Held back, each with its reason: held, pinned, phased, would remove, needs new packages, kept back")
    func heldBackReasons() {
        let upgrade = """
            Inst lab-app [1.0] (2.0 localhost [all])
            Conf lab-app (2.0 localhost [all])
            """
        let distUpgrade = """
            Remv lab-old [1.0]
            Inst lab-lib (1.0 localhost [all])
            Inst lab-app [1.0] (2.0 localhost [all])
            Inst lab-conflicting [1.0] (2.0 localhost [all])
            """
        func entry(_ name: String, installed: String = "1.0", candidate: String = "2.0", newest: String = "2.0", phased: String = "") -> String {
            """
            \(name):
              Installed: \(installed)
              Candidate: \(candidate)
              Version table:
                 \(newest) 500\(phased)
                    500 file:/srv/repo ./ Packages
             *** \(installed) 100
                    100 /srv/root/var/lib/dpkg/status

            """
        }
        let policy = entry("lab-app") + entry("lab-held") + entry("lab-pinned", candidate: "1.0") + entry("lab-phased", phased: " (phased 10%)")
            + entry("lab-conflicting") + entry("lab-stuck") + entry("lab-current", candidate: "1.0", newest: "1.0")
        let read = PendingSnapshotReader.assemble(upgrade: upgrade, distUpgrade: distUpgrade, policy: policy, held: ["lab-held"])
        #expect(read.packages.map(\.name) == ["lab-app"])
        #expect(read.heldBack == [
            HeldBackPackage(name: "lab-conflicting", installedVersion: "1.0", availableVersion: "2.0", reason: .wouldRemove(["lab-old"])),
            HeldBackPackage(name: "lab-held", installedVersion: "1.0", availableVersion: "2.0", reason: .held),
            HeldBackPackage(name: "lab-phased", installedVersion: "1.0", availableVersion: "2.0", reason: .phased(percentage: 10)),
            HeldBackPackage(name: "lab-pinned", installedVersion: "1.0", availableVersion: "2.0", reason: .pinned),
            HeldBackPackage(name: "lab-stuck", installedVersion: "1.0", availableVersion: "2.0", reason: .keptBack),
        ])
        let newOnly = PendingSnapshotReader.assemble(
            upgrade: "", distUpgrade: "Inst lab-lib (1.0 localhost [all])\nInst lab-stuck [1.0] (2.0 localhost [all])\n",
            policy: entry("lab-stuck"), held: [])
        #expect(newOnly.heldBack.map(\.reason) == [.needsNewPackages(["lab-lib"])])
        #expect(HeldBackReason.needsNewPackages(["lab-lib"]).text == "needs new packages: lab-lib")
        #expect(HeldBackReason.wouldRemove(["a", "b"]).text == "would remove a, b")
    }

    @Test("The summary: counts, lists' age, the kernel waiting; up to date; failed with the problem's first line")
    func summary() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var snapshot = PendingSnapshot(
            computedAt: now,
            packages: [
                PendingPackage(name: "a", oldVersion: "1", newVersion: "2", origin: "Debian-Security:12/stable-security"),
                PendingPackage(name: "b", oldVersion: "1", newVersion: "2", origin: "localhost"),
            ],
            heldBack: [HeldBackPackage(name: "c", installedVersion: "1", availableVersion: "2", reason: .held)],
            listsUpdatedAt: now.addingTimeInterval(-6 * 86_400 - 5),
            restarts: RestartAdvice(rebootReasons: [.newerKernel(running: "6.1.0-9-amd64", installed: "6.1.0-28-amd64")]))
        #expect(snapshot.summary(now: now) == "2 pending · 1 security · 1 held back · lists 6 days old · reboot: 6.1.0-28-amd64")
        #expect(snapshot.waitingKernel == "6.1.0-28-amd64")
        snapshot.packages = []
        snapshot.heldBack = []
        snapshot.listsUpdatedAt = now.addingTimeInterval(-3_600)
        snapshot.restarts = RestartAdvice(rebootReasons: [.rebootRequiredFile(packages: ["lab-kernel"])])
        #expect(snapshot.summary(now: now) == "up to date · lists 1 hour old · reboot required")
        snapshot.listsUpdatedAt = nil
        snapshot.restarts = RestartAdvice()
        #expect(snapshot.summary(now: now) == "up to date · lists never updated")
        #expect(snapshot.isUpToDate)
        let failed = PendingSnapshot.failed("E: apt is broken\nsecond line", at: now)
        #expect(failed.summary(now: now) == "failed: E: apt is broken")
        #expect(!failed.isUpToDate)
    }

    @Test("JSON: what encode writes, decode reads back")
    func json() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let snapshot = PendingSnapshot(
            computedAt: now,
            packages: [PendingPackage(name: "libssl3", oldVersion: "3.0.14", newVersion: "3.0.15", origin: "Debian-Security:12/stable-security",
                                      architecture: "amd64", firstSeen: now.addingTimeInterval(-86_400)),
                       PendingPackage(name: "lab-undated", oldVersion: "1", newVersion: "2", origin: "localhost")],
            heldBack: [
                HeldBackPackage(name: "nginx", installedVersion: "1.22", availableVersion: "1.24", reason: .wouldRemove(["nginx-light"])),
                HeldBackPackage(name: "lab-phased", installedVersion: "1", availableVersion: "2", reason: .phased(percentage: 30)),
                HeldBackPackage(name: "lab-pinned", installedVersion: "1", availableVersion: "2", reason: .pinned),
            ],
            listsUpdatedAt: now.addingTimeInterval(-60),
            restarts: RestartAdvice(rebootReasons: [.newerKernel(running: "6.1.0-9", installed: "6.1.0-28")]))
        let line = PendingSnapshotCoding.encode(snapshot)
        #expect(line.contains(#""pending":2,"security":1,"#), "\(line)")
        #expect(line.contains(#""firstSeen":"2027-01-14T08:00:00.000Z""#) && line.contains(#""firstSeen":null"#), "\(line)")
        #expect(line.contains(#""waitingKernel":"6.1.0-28""#), "\(line)")
        guard case .object(let members) = try JSONParser.parse(Array(line.utf8)) else {
            Issue.record("not an object: \(line)")
            return
        }
        #expect(try PendingSnapshotCoding.decode(WireObject(members, context: "snapshot")) == snapshot)
        let failed = PendingSnapshot.failed("E: no apt", at: now)
        guard case .object(let failedMembers) = try JSONParser.parse(Array(PendingSnapshotCoding.encode(failed).utf8)) else { return }
        #expect(try PendingSnapshotCoding.decode(WireObject(failedMembers, context: "snapshot")) == failed)
    }
}
