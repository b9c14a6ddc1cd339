import APTTestSupport
import Foundation
@testable import InstallDrivers
import Testing

/// Giving dpkg back its record of a package's original conffiles after an undo from a rebuilt
/// .deb (rule 36): only the hash words of that package at that version change, under dpkg's
/// locks, written the way dpkg writes its status.
@Suite("apt undo: dpkg's record of conffiles")
struct DpkgConffileRecordTests {
    private static let status = """
        Package: lab-app
        Status: install ok installed
        Version: 1.0
        Architecture: all
        Conffiles:
         /etc/lab-app.conf 0123456789abcdef0123456789abcdef
         /etc/lab-app.d/old 11111111111111111111111111111111 obsolete
        Description: lab
         with a second line

        Package: lab-other
        Status: install ok installed
        Version: 1.0
        Architecture: all
        Conffiles:
         /etc/lab-app.conf 0123456789abcdef0123456789abcdef

        """

    private static let original = "ffffffffffffffffffffffffffffffff"

    @Test("the named package at the named version gets its hashes back; every other byte stays")
    func rewrite() {
        let restoration = DpkgConffileRecord.Restoration(package: "lab-app", version: "1.0", architecture: "all",
                                                         hashes: ["/etc/lab-app.conf": Self.original,
                                                                  "/etc/lab-app.d/old": "22222222222222222222222222222222"])
        let (text, changed) = DpkgConffileRecord.rewrite(Self.status, restoring: [restoration])
        #expect(changed == ["lab-app /etc/lab-app.conf", "lab-app /etc/lab-app.d/old"])
        #expect(text == Self.status
            .replacingOccurrences(of: " /etc/lab-app.conf 0123456789abcdef0123456789abcdef\n /etc/lab-app.d/old 11111111111111111111111111111111",
                                  with: " /etc/lab-app.conf \(Self.original)\n /etc/lab-app.d/old 22222222222222222222222222222222"),
                "\(text)")

        // Another version (the undo did not reach the package) or architecture: nothing changes.
        for other in [DpkgConffileRecord.Restoration(package: "lab-app", version: "2.0", architecture: "all", hashes: restoration.hashes),
                      DpkgConffileRecord.Restoration(package: "lab-app", version: "1.0", architecture: "amd64", hashes: restoration.hashes)] {
            let (same, none) = DpkgConffileRecord.rewrite(Self.status, restoring: [other])
            #expect(same == Self.status && none.isEmpty)
        }
    }

    @Test("written under dpkg's locks (waits for a holder, gives up after its wait), never over a pending journal; status-old kept")
    func restoreUnderTheLocks() throws {
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let admin = apt.root + "/var/lib/dpkg"
        try Self.status.write(toFile: admin + "/status", atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: admin + "/status")
        let restoration = DpkgConffileRecord.Restoration(package: "lab-app", version: "1.0", architecture: nil,
                                                         hashes: ["/etc/lab-app.conf": Self.original])

        for lock in ["lock-frontend", "lock"] {
            let holder = try DpkgLockHolder(path: admin + "/" + lock)
            defer { holder.release() }
            #expect(throws: DpkgConffileRecordError.self) {
                try DpkgConffileRecord.restore([restoration], administrativeDirectory: admin, lockWait: 0.3)
            }
            #expect(try String(contentsOfFile: admin + "/status", encoding: .utf8) == Self.status)
        }

        try FileManager.default.createDirectory(atPath: admin + "/updates", withIntermediateDirectories: true)
        try "Package: lab-app\n".write(toFile: admin + "/updates/0000", atomically: true, encoding: .utf8)
        #expect(throws: DpkgConffileRecordError.self) {
            try DpkgConffileRecord.restore([restoration], administrativeDirectory: admin)
        }
        try FileManager.default.removeItem(atPath: admin + "/updates/0000")

        let changed = try DpkgConffileRecord.restore([restoration], administrativeDirectory: admin)
        #expect(changed == ["lab-app /etc/lab-app.conf"])
        let written = try String(contentsOfFile: admin + "/status", encoding: .utf8)
        #expect(written.contains(" /etc/lab-app.conf \(Self.original)\n") && written.contains("Package: lab-other"))
        #expect(try String(contentsOfFile: admin + "/status-old", encoding: .utf8) == Self.status)
        #expect(!FileManager.default.fileExists(atPath: admin + "/status-new"))
        let mode = (try FileManager.default.attributesOfItem(atPath: admin + "/status")[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode == 0o644)
        // dpkg reads it back.
        let query = try TestCommand.check(["/usr/bin/dpkg-query", "--admindir=\(admin)", "-W", "-f=${Conffiles}", "lab-app"])
        #expect(query.stdout.contains("/etc/lab-app.conf \(Self.original)"), "\(query.stdout)")
    }
}
