import APTTestSupport
import Foundation
import Glibc
import Testing

/// `installtop apt … --yes` through the real binary in a private root: apt resolves once, and
/// before its plan hook has spoken a stop changes nothing. The host's packages are never touched
/// (fingerprinted).
@Suite("installtop apt --yes: apt resolves once", .serialized)
struct APTResolveOnceTests {
    @Test("SIGINT while the root's own Pre-Install-Pkgs hook runs (apt ignores SIGINT then): nothing installed, said so, exit 3")
    func stopBeforeDpkg() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-tool")])
        let (entered, released) = try apt.holdInPreInstallHook()
        let folder = try TestFolder()
        defer { folder.remove() }

        let process = try InstalltopProcess(["apt", "install", "lab-tool", "--yes", "--json", "--no-history", "--apt-config", apt.configuration],
                                            in: folder)
        try await waitUntil("the root's hook to run") { FileManager.default.fileExists(atPath: entered) }
        process.send(SIGINT)
        // The hook ends only once installtop has taken the stop (its relay runs on a queue of its own).
        try await waitUntil("the stop to be taken") { process.stderr.contains("stopping apt before it changes anything") }
        #expect(FileManager.default.createFile(atPath: released, contents: nil))
        let result = try await process.finish(timeout: .seconds(60))

        #expect(result.status == 3, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stderr.contains("installtop: apt install lab-tool: stopped before anything was changed"), "\(result.stderr)")
        #expect(!result.stdout.contains("job.queued"), "a job was made: \(result.stdout)")
        #expect(try apt.states().isEmpty, "dpkg ran")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
