import Foundation
import Glibc
import Testing
import TestProcessSupport

/// The copies the tests that run installtop as another user start from: where that user can run
/// them, also when the checkout is in a folder closed to others, and a refusal at once, with
/// the probe's words, when that user cannot.
@Suite("executables for a user who is not root")
struct OtherUserExecutablesTests {
    @Test("a binary in a folder closed to others (a checkout under /root, 0700) runs as nobody from its copy; the copy goes with remove()",
          .enabled(if: getuid() == 0, "needs root to run a program as uid 65534 (nobody)"))
    func aClosedCheckout() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        #expect(chmod(folder.path, 0o700) == 0)
        let closed = folder.file("installtop")
        try FileManager.default.copyItem(atPath: try InstalltopBinary.path(), toPath: closed)
        // Through a shell, as ssh runs a remote command (setpriv itself may still exec it).
        let direct = try await InstalltopProcess(["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c", "exec '\(closed)' --version"],
                                                 in: folder, executable: "/usr/bin/setpriv").finish(timeout: .seconds(60))
        #expect(direct.status != 0 && direct.stderr.contains("Permission denied"), "nobody ran it where it is: \(direct.status) \(direct.stderr)")

        let copies = try OtherUserExecutables(copying: [closed])
        let fromCopy = try await InstalltopProcess(["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/sh", "-c",
                                                    "exec '\(copies.path("installtop"))' --version"],
                                                   in: folder, executable: "/usr/bin/setpriv").finish(timeout: .seconds(60))
        #expect(fromCopy.status == 0, "\(fromCopy.status) \(fromCopy.stderr)")
        var info = stat()
        #expect(stat(copies.folder, &info) == 0 && info.st_mode & 0o777 == 0o755, "\(String(info.st_mode & 0o777, radix: 8))")
        #expect(copies.path("installtop").hasPrefix("/tmp/") && access(copies.path("installtop"), X_OK) == 0)
        copies.remove()
        #expect(access(copies.folder, F_OK) != 0, "the folder is gone")
    }

    @Test("a copy nobody cannot run is refused at once, with how the probe ended and what it said, and is not left behind",
          .enabled(if: getuid() == 0, "needs root to run a program as uid 65534 (nobody)"))
    func aProbeThatFails() throws {
        let started = ContinuousClock.now
        do {
            let copies = try OtherUserExecutables(copying: ["/bin/sh"], probe: ["-c", "echo cannot start >&2; exit 3"])
            copies.remove()
            Issue.record("a probe that exits 3 was accepted")
        } catch let error as OtherUserExecutablesError {
            #expect(error.description.hasPrefix("uid 65534 cannot run /tmp/"), "\(error)")
            #expect(error.description.hasSuffix("it ended with status 3: cannot start\n"), "\(error)")
            let copy = error.description.split(separator: " ").first { $0.hasPrefix("/tmp/") }.map(String.init) ?? ""
            #expect(!copy.isEmpty && access(copy, F_OK) != 0, "the copy is not left behind: \(copy)")
        }
        #expect(ContinuousClock.now - started < .seconds(30), "refused at once, not after a timeout")
    }
}
