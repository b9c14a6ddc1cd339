import APTTestSupport
import Foundation
import Glibc
import Testing

/// A forced abort whose repair cannot succeed, through the real binary in a private apt root:
/// exit status 5, and the summary names the command that repairs dpkg. The host's packages are
/// never touched (fingerprinted).
@Suite("installtop apt: dpkg left broken", .serialized)
struct APTRepairTests {
    @Test("Second SIGINT during the runtime's preinst, a postinst that fails once cut: exit 5, the fix command in the summary")
    func leftBroken() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        try apt.publish([TestPackage(name: "lab-rt"), TestPackage(name: "lab-kit", depends: "lab-rt (= 1.0)")])
        try apt.aptGet(["-y", "install", "lab-rt", "lab-kit"], check: true)
        // 2.0: the preinst waits on its first run (the cut lands there); once cut, the postinst
        // fails for ever, so no repair can configure the runtime.
        try apt.publish([
            TestPackage(name: "lab-rt", version: "2.0", preinst: """
                mkdir -p "$DPKG_ROOT/tmp"
                if [ ! -e "$DPKG_ROOT/tmp/held" ]; then touch "$DPKG_ROOT/tmp/held"; sleep 60 & wait $!; fi
                """, postinst: """
                if [ -e "$DPKG_ROOT/tmp/held" ]; then echo "lab-rt: cannot start after an interruption" >&2; exit 1; fi
                """),
            TestPackage(name: "lab-kit", version: "2.0", depends: "lab-rt (= 2.0)"),
        ])

        let process = try InstalltopProcess(
            ["apt", "install", "lab-rt", "lab-kit", "--yes", "--plain", "--no-history", "--apt-config", apt.configuration], in: folder)
        try await waitUntil("lab-rt's preinst to run") { FileManager.default.fileExists(atPath: apt.root + "/tmp/held") }
        process.send(SIGINT)
        try await waitUntil("the first SIGINT to be taken") { process.stderr.contains("aborting every job") }
        process.send(SIGINT)
        let result = try await process.finish(timeout: .seconds(120))

        #expect(result.status == 5, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        let fix = "run `APT_CONFIG=\(apt.configuration) apt-get -f --reinstall install lab-rt` to repair it"
        let summary = result.stdout.components(separatedBy: "\nSummary\n").last ?? ""
        #expect(summary.contains("lab-rt: cut by a forced abort;") && summary.contains("dpkg is left broken: dpkg --audit lists problems")
                && summary.contains(fix), "\(summary)")
        // The cut package's line says each repair step with its outcome as it ends.
        let cut = result.stdout.split(separator: "\n").first { $0.contains("lab-rt aborted") } ?? ""
        #expect(cut.contains("dpkg --configure -a ran, then apt-get -f install exited with status 100") && cut.contains(fix), "\(result.stdout)")
        #expect(!(try apt.audit()).isEmpty, "the root was not left broken: the test proves nothing")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
