import APTTestSupport
import Foundation
import Glibc
import Testing

/// An abort that comes when nothing is left to stop (rule 16): the last package's postinst runs
/// when SIGINT comes, apt finishes it as it would any package, and every package succeeds.
/// The job is then no abort: its result and exit status follow its packages', and the summary
/// says the abort came too late to stop anything. Private root only; the host is fingerprinted.
@Suite("installtop apt: an abort after the last package began", .serialized)
struct APTLateAbortTests {
    @Test("SIGINT during the last package's postinst: both succeed, exit 0, the summary says nothing was left to stop")
    func abortDuringTheLastPackage() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        try apt.publish([
            TestPackage(name: "lab-first"),
            TestPackage(name: "lab-last", depends: "lab-first", postinst: """
                mkdir -p "$DPKG_ROOT/tmp"
                touch "$DPKG_ROOT/tmp/last-began"
                while [ ! -e "$DPKG_ROOT/release" ]; do sleep 0.05; done
                """),
        ])
        let database = folder.file("history.sqlite3")
        let process = try InstalltopProcess(["apt", "install", "lab-last", "--yes", "--plain", "--apt-config", apt.configuration,
                                             "--history-db", database], in: folder, environment: ["COLUMNS": "200"])
        guard await eventually(timeout: .seconds(120), { FileManager.default.fileExists(atPath: apt.root + "/tmp/last-began") }) else {
            throw EndToEndError.conditionNotMet("lab-last's postinst to run; stdout: \(process.stdout)\nstderr: \(process.stderr)")
        }
        process.send(SIGINT)
        try await waitUntil("installtop to take the SIGINT; stderr: \(process.stderr)") { process.stderr.contains("aborting every job") }
        try "".write(toFile: apt.root + "/release", atomically: true, encoding: .utf8)
        let result = try await process.finish(timeout: .seconds(120))

        #expect(result.status == 0, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(try apt.states().mapValues(\.status) == ["lab-first": "ii", "lab-last": "ii"])
        #expect(result.stdout.contains("exit 0: every update succeeded; the abort of job 1 came after the last update began: nothing was left to stop"),
                "\(result.stdout)")
        let runs = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects()
        #expect(runs.first?["result"] as? String == "succeeded", "\(runs)")
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
