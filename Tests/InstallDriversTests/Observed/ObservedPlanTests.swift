import InstallDrivers
import InstallEngine
import Testing

@Suite("What the hooks hand the engine: apt's version 3 plan and dpkg's status lines")
struct ObservedPlanTests {
    @Test("Installs, an upgrade, a removal and a configure line of a package already listed")
    func plan() {
        let plan = ObservedPlan(lines: [
            "CommandLine::AsString=apt-get%20install%20-y%20lab-a",
            "Dir::State::status=/tmp/root/var/lib/dpkg/status",
            "lab-a - - none < 1.0 all none /repo/./lab-a_1.0_all.deb",
            "lab-b 1.0 all none < 2.0 all none /repo/./lab-b_2.0_all.deb",
            "lab-old 0.9 all none > - - none **REMOVE**",
            "lab-a - - none < 1.0 all none **CONFIGURE**",
        ])
        #expect(plan.commandLine == "apt-get install -y lab-a")
        #expect(plan.administrativeDirectory == "/tmp/root/var/lib/dpkg")
        #expect(plan.changes == [
            PackageChange(package: "lab-a", action: .install, newVersion: "1.0", architecture: "all"),
            PackageChange(package: "lab-b", action: .upgrade, oldVersion: "1.0", newVersion: "2.0", architecture: "all"),
            PackageChange(package: "lab-old", action: .remove, oldVersion: "0.9", architecture: "all"),
        ])
    }

    @Test("dpkg's database: --admindir first, then --root's when the status file is the default (python-apt's rootdir), else the status file's folder")
    func administrativeDirectory() {
        let root = ["DPkg::Options::=--root=/tmp/r/", "lab-a - - none < 1.0 all none /repo/./lab-a_1.0_all.deb"]
        #expect(ObservedPlan(lines: ["Dir::State::status=//var/lib/dpkg/status"] + root).administrativeDirectory == "/tmp/r/var/lib/dpkg")
        #expect(ObservedPlan(lines: ["Dir::State::status=/tmp/r/var/lib/dpkg/status"] + root).administrativeDirectory == "/tmp/r/var/lib/dpkg")
        #expect(ObservedPlan(lines: ["Dir::State::status=/srv/db/status"] + root).administrativeDirectory == "/srv/db")
        #expect(ObservedPlan(lines: ["DPkg::Options::=--admindir=/a", "Dir::State::status=/var/lib/dpkg/status"] + root).administrativeDirectory == "/a")
        #expect(ObservedPlan(lines: ["Dir::State::status=/var/lib/dpkg/status"]).administrativeDirectory == "/var/lib/dpkg")
    }

    @Test("dpkg's lines: processing, a state, an architecture-qualified name and an error")
    func statusLines() {
        #expect(DpkgStatusLine("processing: configure: lab-a") == .processing(action: "configure", package: "lab-a"))
        #expect(DpkgStatusLine("status: lab-a: half-configured") == .status(package: "lab-a", state: "half-configured"))
        #expect(DpkgStatusLine("status: libc6:amd64: unpacked") == .status(package: "libc6", state: "unpacked"))
        #expect(DpkgStatusLine("status: lab-b : error : subprocess installed post-installation script returned error exit status 1")
            == .error(package: "lab-b", message: "subprocess installed post-installation script returned error exit status 1"))
        #expect(DpkgStatusLine("conffile-prompt: '/etc/x' '/etc/x.dpkg-new' 1 1") == nil)
    }
}
