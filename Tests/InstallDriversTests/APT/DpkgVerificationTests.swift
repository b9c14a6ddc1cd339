import Testing

@testable import InstallDrivers

/// `dpkg --verify`'s words read: the files that differ, conffiles left out; the root a dpkg
/// database belongs to.
@Suite("dpkg --verify")
struct DpkgVerificationTests {
    @Test("Differing and missing files are named; a conffile changed by the operator is not")
    func parse() {
        let output = """
            ??5??????   /usr/share/lab-k2/data
            missing     /usr/bin/lab-tool
            ??5?????? c /etc/lab-k3.conf
            """
        #expect(DpkgVerification.parse(output) == [DpkgVerifiedFile(path: "/usr/share/lab-k2/data"), DpkgVerifiedFile(path: "/usr/bin/lab-tool", missing: true)])
        #expect(DpkgVerification.parse("").isEmpty)
    }

    @Test("The root of a dpkg database: / for the machine's, ROOT for ROOT/var/lib/dpkg, none elsewhere")
    func roots() {
        #expect(DpkgVerification.root(ofAdministrativeDirectory: "/var/lib/dpkg") == "/")
        #expect(DpkgVerification.root(ofAdministrativeDirectory: "/srv/chroot/var/lib/dpkg/") == "/srv/chroot")
        #expect(DpkgVerification.root(ofAdministrativeDirectory: "/tmp/lab/dpkg") == nil)
    }

    @Test("The phrase names at most three of the files that differ, and of those missing, each said as what it is")
    func phrase() {
        let files = { (paths: [String], missing: Bool) in paths.map { DpkgVerifiedFile(path: $0, missing: missing) } }
        #expect(DpkgVerification.phrase(files(["/a"], false)) == "1 file differs from what dpkg recorded (/a)")
        #expect(DpkgVerification.phrase(files(["/a", "/b", "/c", "/d"], false)) == "4 files differ from what dpkg recorded (/a, /b, /c, …)")
        #expect(DpkgVerification.phrase(files(["/bin/x"], true)) == "1 file dpkg recorded is missing (/bin/x)")
        #expect(DpkgVerification.phrase(files(["/a"], false) + files(["/x", "/y"], true))
                == "1 file differs from what dpkg recorded (/a), and 2 are missing (/x, /y)")
    }
}
