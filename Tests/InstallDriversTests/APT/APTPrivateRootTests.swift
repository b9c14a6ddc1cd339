import APTTestSupport
import InstallDrivers
import InstallEngine
import Testing

/// The hermetic apt root the apt tests stand on, and the plan parsers against real apt output.
/// Nothing of the host's packages may change (checked by fingerprint).
@Suite("apt: a private root")
struct APTPrivateRootTests {
    @Test("apt's simulation and download list of a real root read as the plan; the install lands in the root only")
    func planAndInstall() throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish(TestPackage.appAndRebootingKernel)

        let simulation = try apt.aptGet(["-s", "-o", "APT::Immediate-Configure-All=1", "install", "lab-app", "lab-kernel"], check: true)
        let plan = APTSimulation.plan(from: simulation.stdout)
        #expect(plan.map(\.package).sorted() == ["lab-app", "lab-base", "lab-kernel"], "\(simulation.stdout)")
        #expect(plan.firstIndex { $0.package == "lab-base" }! < plan.firstIndex { $0.package == "lab-app" }!, "dependencies first")
        #expect(plan.allSatisfy { $0.action == .install && $0.newVersion == "1.0" })

        let uris = try apt.aptGet(["--print-uris", "-qq", "install", "lab-app", "lab-kernel"], check: true)
        let downloads = APTDownload.list(from: uris.stdout)
        #expect(Set(downloads.map(\.package)) == ["lab-app", "lab-base", "lab-kernel"], "\(uris.stdout)")
        #expect(downloads.allSatisfy { $0.size > 0 })

        try apt.aptGet(["-y", "install", "lab-app", "lab-kernel"], check: true)
        let states = try apt.states()
        #expect(states["lab-app"]?.status == "ii" && states["lab-base"]?.status == "ii" && states["lab-kernel"]?.status == "ii")
        #expect(try apt.audit().isEmpty)
        #expect(try String(contentsOfFile: apt.root + "/run/reboot-required.pkgs", encoding: .utf8) == "lab-kernel\n")

        try apt.publish([TestPackage(name: "lab-app", version: "2.0", depends: "lab-base")])
        let upgrade = APTSimulation.plan(from: try apt.aptGet(["-s", "upgrade"], check: true).stdout)
        #expect(upgrade == [PackageChange(package: "lab-app", action: .upgrade, oldVersion: "1.0", newVersion: "2.0", architecture: "all")])
        let removal = APTSimulation.plan(from: try apt.aptGet(["-s", "remove", "lab-base"], check: true).stdout)
        #expect(Set(removal.map(\.package)) == ["lab-app", "lab-base"] && removal.allSatisfy(\.isRemoval))

        #expect(HostPackageFingerprint().changes(since: host).isEmpty, "the host's package state changed")
    }
}
