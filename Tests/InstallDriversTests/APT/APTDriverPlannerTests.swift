import APTTestSupport
import Foundation
import InstallDrivers
import InstallEngine
import Testing
import TestProcessSupport

/// `APTPlanner` against real apt in a private root: the plan (order, versions, titles, sizes,
/// summary) before anything runs, and its refusals in apt's words. Planning changes nothing,
/// in the root or on the host.
@Suite("apt: the planner", .serialized)
struct APTDriverPlannerTests {
    @Test("an install with a dependency: the dependency first, versions and sizes from apt, nothing changed yet")
    func install() throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([
            TestPackage(name: "lab-base"),
            TestPackage(name: "lab-app", depends: "lab-base"),
            TestPackage(name: "lab-tool"),
        ])
        let plan = try APTPlanner.plan(PackageJob(request: .install(["lab-app", "lab-tool"]), aptConfig: apt.configuration))

        let order = plan.changes.map(\.package)
        #expect(Set(order) == ["lab-app", "lab-base", "lab-tool"])
        #expect(try #require(order.firstIndex(of: "lab-base")) < #require(order.firstIndex(of: "lab-app")), "dependency first: \(order)")
        #expect(plan.changes.allSatisfy { $0.action == .install && $0.oldVersion == nil && $0.newVersion == "1.0" })
        #expect(plan.environment.root == apt.root)
        #expect(plan.environment.administrativeDirectory == apt.root + "/var/lib/dpkg")

        // One update per package: id = the package, titled with its version, sized from --print-uris.
        #expect(plan.updates.map(\.id) == order)
        #expect(plan.updates.map(\.title) == order.map { "\($0) 1.0" })
        #expect(plan.updates.allSatisfy { $0.package?.package == $0.id && ($0.sizeInBytes ?? 0) > 0 })
        #expect(Set(plan.downloads.map(\.package)) == Set(order))
        #expect(plan.downloads.allSatisfy { $0.size > 0 && $0.uri.hasPrefix("file:") })
        #expect(plan.downloadSize == plan.downloads.reduce(0) { $0 + $1.size })
        #expect(plan.summary == "3 to install · \(ByteCountText.text(plan.downloadSize)) to download")
        #expect(plan.job.request.operation == .install)

        #expect(try apt.states().isEmpty, "a plan installs nothing")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("after an install: an upgrade (old → new in the change and the title) and a removal (uninstall, nothing to fetch)")
    func upgradeAndRemoval() throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base"), TestPackage(name: "lab-app", depends: "lab-base")])
        try apt.aptGet(["-y", "install", "lab-app"], check: true)
        try apt.publish([TestPackage(name: "lab-app", version: "2.0", depends: "lab-base")])

        let upgrade = try APTPlanner.plan(PackageJob(request: .upgrade, aptConfig: apt.configuration))
        #expect(upgrade.changes == [PackageChange(package: "lab-app", action: .upgrade, oldVersion: "1.0", newVersion: "2.0", architecture: "all")])
        #expect(upgrade.updates.map(\.title) == ["lab-app 1.0 → 2.0"])
        #expect(upgrade.updates.first?.package == upgrade.changes.first)
        #expect((upgrade.updates.first?.sizeInBytes ?? 0) > 0)
        #expect(upgrade.summary == "1 to upgrade · \(ByteCountText.text(upgrade.downloadSize)) to download")

        let job = PackageJob(request: .remove(["lab-base"]), aptConfig: apt.configuration)
        let removal = try APTPlanner.plan(job)
        #expect(job.request.operation == .uninstall)
        #expect(Set(removal.changes.map(\.package)) == ["lab-app", "lab-base"], "lab-app depends on lab-base")
        #expect(removal.changes.allSatisfy { $0.action == .remove && $0.newVersion == nil && $0.oldVersion == "1.0" })
        #expect(removal.updates.allSatisfy { $0.title == "\($0.id) 1.0 (remove)" && $0.sizeInBytes == nil })
        #expect(removal.downloads.isEmpty)
        #expect(removal.summary == "2 to remove")

        let states = try apt.states()
        #expect(states["lab-app"]?.version == "1.0" && states["lab-app"]?.status == "ii", "planning changed the root")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("install chrony's shape: an install, the removal of what it conflicts with, and the upgrade of an Essential package, marked")
    func conflictAndEssential() throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot.chronyShape()
        defer { apt.remove() }

        let plan = try APTPlanner.plan(PackageJob(request: .install(["lab-chrony"]), aptConfig: apt.configuration))

        let byName = Dictionary(uniqueKeysWithValues: plan.changes.map { ($0.package, $0) })
        #expect(byName["lab-timesyncd"]?.action == .remove && byName["lab-timesyncd"]?.essential == false, "\(plan.changes)")
        #expect(byName["lab-core"]?.action == .upgrade && byName["lab-core"]?.oldVersion == "1.0" && byName["lab-core"]?.newVersion == "2.0")
        #expect(byName["lab-core"]?.essential == true, "lab-core is Essential in dpkg's database: \(plan.changes)")
        #expect(byName["lab-chrony"]?.action == .install && byName["lab-chrony"]?.essential == false)
        #expect(plan.updates.first { $0.id == "lab-core" }?.package?.essential == true, "the update carries it to the monitor and JSON")
        #expect(PackageChange.essentialWarning(plan.changes) == "upgrades an Essential package: lab-core")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("an unknown package is refused in apt's words")
    func unknownPackage() throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base")])
        let error = #expect(throws: APTPlanError.self) {
            try APTPlanner.plan(PackageJob(request: .install(["lab-base", "lab-nosuch"]), aptConfig: apt.configuration))
        }
        #expect(error?.kind == .aptRefused)
        #expect(error?.message.contains("E: Unable to locate package lab-nosuch") == true, "\(error?.message ?? "")")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("unmet dependencies are refused with apt's whole explanation: its list of what is unmet, then its E: line")
    func unmetDependencies() throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base"), TestPackage(name: "lab-app", depends: "lab-missing (>= 2)")])
        let error = #expect(throws: APTPlanError.self) {
            try APTPlanner.plan(PackageJob(request: .install(["lab-base", "lab-app"]), aptConfig: apt.configuration))
        }
        let lines = (error?.message ?? "").split(separator: "\n").map(String.init)
        #expect(error?.kind == .aptRefused)
        #expect(lines.first == "The following packages have unmet dependencies:", "\(lines)")
        #expect(lines.contains { $0.contains("lab-app : Depends: lab-missing (>= 2) but it is not installable") }, "\(lines)")
        #expect(lines.last?.hasPrefix("E: ") == true, "\(lines)")
        #expect(try apt.states().isEmpty, "a refused plan installs nothing")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("a dpkg database locked by another process is refused, naming the holder's pid")
    func locked() throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base")])
        let holder = try DpkgLockHolder(path: apt.root + "/var/lib/dpkg/lock-frontend")
        defer { holder.release() }

        let error = #expect(throws: APTPlanError.self) {
            try APTPlanner.plan(PackageJob(request: .install(["lab-base"]), aptConfig: apt.configuration))
        }
        #expect(error?.kind == .locked)
        #expect(error?.message.contains("held by process \(holder.pid)") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(apt.root + "/var/lib/dpkg/lock-frontend") == true)

        // Free again: the same request plans.
        holder.release()
        #expect(try APTPlanner.plan(PackageJob(request: .install(["lab-base"]), aptConfig: apt.configuration)).changes.count == 1)
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("an upgrade with everything current is an empty plan: nothing to do")
    func nothingToDo() throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base")])
        try apt.aptGet(["-y", "install", "lab-base"], check: true)
        let plan = try APTPlanner.plan(PackageJob(request: .upgrade, aptConfig: apt.configuration))
        #expect(plan.isEmpty)
        #expect(plan.updates.isEmpty && plan.downloads.isEmpty)
        #expect(plan.summary == "nothing to do")
        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }

    @Test("the simulation and the download list run at once: each waits for the other to have started")
    func simulationAndDownloadListAtOnce() throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-base"), TestPackage(name: "lab-app", depends: "lab-base")])
        // A stand-in apt-get that marks which of the two runs it is, waits (up to 60 s) until
        // the other one has started, then runs the real apt-get: run one after the other, the
        // first never sees the second and fails.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-rendezvous-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/apt-get"
        try """
            #!/bin/sh
            mine=simulation; other=list
            for argument; do [ "$argument" = --print-uris ] && { mine=list; other=simulation; }; done
            touch "\(folder)/$mine"
            tries=0
            while [ ! -e "\(folder)/$other" ]; do
                tries=$((tries + 1)); [ $tries -gt 1200 ] && { echo "E: the $other run never started" >&2; exit 90; }
                sleep 0.05
            done
            exec \(PrivateAPTRoot.aptGet) "$@"
            """.write(toFile: script, atomically: true, encoding: .utf8)
        try ExecutableFile.makeExecutable(script)

        let plan = try APTPlanner.plan(PackageJob(request: .install(["lab-app"]), aptConfig: apt.configuration), aptGet: script)
        #expect(plan.changes.map(\.package) == ["lab-base", "lab-app"])
        #expect(Set(plan.downloads.map(\.package)) == ["lab-base", "lab-app"], "the list's sizes are the plan's")
    }
}
