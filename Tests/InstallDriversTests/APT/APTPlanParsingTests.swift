import InstallDrivers
import InstallEngine
import Testing

/// What apt says before anything runs: the simulation's plan and the downloads' sizes.
@Suite("apt: reading the plan")
struct APTPlanParsingTests {
    @Test("Inst, Remv and Purg lines in apt's order; Conf and notes skipped; each package once")
    func simulation() {
        let output = """
            NOTE: This is only a simulation!
                  apt-get needs root privileges for real execution.
            Reading package lists...
            The following NEW packages will be installed:
              lab-base
            Inst lab-base (1.0 localhost [all])
            Conf lab-base (1.0 localhost [all])
            Inst lab-app [1.0] (2.0 localhost [all])
            Inst libssl3:amd64 [3.0.14-1~deb12u1] (3.0.15-1~deb12u1 Debian-Security:12/stable-security [amd64]) []
            Conf lab-app (2.0 localhost [all])
            Inst lab-same [1.5] (1.5 localhost [all])
            Remv lab-old [0.9]
            Purg lab-gone [0.1]
            """
        #expect(APTSimulation.plan(from: output) == [
            PackageChange(package: "lab-base", action: .install, newVersion: "1.0", architecture: "all"),
            PackageChange(package: "lab-app", action: .upgrade, oldVersion: "1.0", newVersion: "2.0", architecture: "all"),
            PackageChange(package: "libssl3", action: .upgrade, oldVersion: "3.0.14-1~deb12u1", newVersion: "3.0.15-1~deb12u1",
                             architecture: "amd64"),
            PackageChange(package: "lab-same", action: .reinstall, oldVersion: "1.5", newVersion: "1.5", architecture: "all"),
            PackageChange(package: "lab-old", action: .remove, oldVersion: "0.9"),
            PackageChange(package: "lab-gone", action: .purge, oldVersion: "0.1"),
        ])
    }

    @Test("nothing to do is an empty plan")
    func nothingToDo() {
        #expect(APTSimulation.plan(from: "Reading package lists...\n0 upgraded, 0 newly installed, 0 to remove and 0 not upgraded.\n").isEmpty)
    }

    @Test("titles say what happens to the package")
    func titles() {
        #expect(PackageChange(package: "openssl", action: .upgrade, oldVersion: "3.0.14", newVersion: "3.0.15").title
            == "openssl 3.0.14 → 3.0.15")
        #expect(PackageChange(package: "curl", action: .install, newVersion: "7.88.1").title == "curl 7.88.1")
        #expect(PackageChange(package: "telnet", action: .remove, oldVersion: "0.17").title == "telnet 0.17 (remove)")
        #expect(PackageChange(package: "x", action: .purge, oldVersion: "1").title == "x 1 (purge)")
        #expect(PackageChange(package: "x", action: .reinstall, oldVersion: "1", newVersion: "1").title == "x 1 (reinstall)")
        #expect(PackageChange(package: "telnet", action: .remove).isRemoval)
    }

    @Test("--print-uris lines give each file's package and size, in dlstatus order")
    func downloads() {
        let output = """
            'file:/tmp/repo/./lab-base_1.0_all.deb' lab-base_1.0_all.deb 5242 MD5Sum:0c2a
            'http://deb.debian.org/debian/pool/main/c/curl/curl_7.88.1-10%2bdeb12u8_amd64.deb' curl_7.88.1-10+deb12u8_amd64.deb 315580 SHA256:ab12
            garbage line
            """
        #expect(APTDownload.list(from: output) == [
            APTDownload(uri: "file:/tmp/repo/./lab-base_1.0_all.deb", fileName: "lab-base_1.0_all.deb", package: "lab-base", size: 5242),
            APTDownload(uri: "http://deb.debian.org/debian/pool/main/c/curl/curl_7.88.1-10%2bdeb12u8_amd64.deb",
                        fileName: "curl_7.88.1-10+deb12u8_amd64.deb", package: "curl", size: 315_580),
        ])
    }
}
