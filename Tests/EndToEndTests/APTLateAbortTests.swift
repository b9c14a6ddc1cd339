import APTTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

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

    @Test("SIGINT while apt's DPkg::Post-Invoke hook runs (apt does not catch it then): apt-get ends on the stop's own signal, not a kill from outside; the package succeeded, exit 0")
    func abortInPostInvoke() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        try apt.publish([TestPackage(name: "lab-tool")])
        // The root's own hook, as needrestart's would run: after dpkg's last run. Bounded (60 s)
        // so that nothing outlives the test should the engine not end it.
        let (entered, released) = (apt.root + "/tmp/in-post-invoke", apt.root + "/tmp/release")
        try FileManager.default.createDirectory(atPath: apt.root + "/tmp", withIntermediateDirectories: true)
        try "DPkg::Post-Invoke:: \"touch \(entered); i=0; while [ ! -e \(released) ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done\";\n"
            .write(toFile: apt.root + "/etc/apt/apt.conf.d/50lab-post-invoke", atomically: true, encoding: .utf8)
        defer { _ = FileManager.default.createFile(atPath: released, contents: nil) }
        let database = folder.file("history.sqlite3")
        let process = try InstalltopProcess(["apt", "install", "lab-tool", "--yes", "--plain", "--apt-config", apt.configuration,
                                             "--history-db", database], in: folder, environment: ["COLUMNS": "200"])
        guard await eventually(timeout: .seconds(120), { FileManager.default.fileExists(atPath: entered) }) else {
            throw EndToEndError.conditionNotMet("the Post-Invoke hook to run; stdout: \(process.stdout)\nstderr: \(process.stderr)")
        }
        process.send(SIGINT)
        let result = try await process.finish(timeout: .seconds(120))

        let said = result.stdout + result.stderr
        #expect(result.status == 0, "\(said)")
        #expect(!said.contains("from outside") && !said.contains("killed by signal"), "installtop's own stop taken for a kill: \(said)")
        #expect(said.contains(APTLateAbortTests.endedOnTheStop), "\(said)")
        #expect(said.contains("nothing was left to stop"), "\(said)")
        #expect(try apt.states().mapValues(\.status) == ["lab-tool": "ii"])
        let runs = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: folder).jsonObjects()
        #expect(runs.first?["result"] as? String == "succeeded", "\(runs)")
        // Among the package's lines in the history, as the steps after it are.
        let rows = try await installtop(["history", "--json", "--history-db", database], in: folder).jsonObjects()
        let tail = rows.first { $0["updateId"] as? String == "lab-tool" }?["outputTail"] as? String ?? ""
        #expect(tail.contains("installtop: " + APTLateAbortTests.endedOnTheStop), "\(rows)")
        #expect(try apt.audit().isEmpty)
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    /// The words of `APTTranslator.endedOnTheStop`, as the summary wraps none at 200 columns.
    private static let endedOnTheStop = "apt-get ended on the stop's SIGINT outside a dpkg run"
}
