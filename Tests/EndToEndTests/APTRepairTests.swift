import APTTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// A forced abort through the real binary in a private apt root: a repair that cannot succeed
/// (exit status 5, the summary names the command that repairs dpkg), and one that completes
/// more packages than the cut one (every row is dpkg's state afterwards, in the summary and the
/// history alike). The host's packages are never touched (fingerprinted).
@Suite("installtop apt: dpkg left broken", .serialized)
struct APTRepairTests {
    /// Runs `installtop apt install lab-rt lab-kit --yes --apt-config … OPTIONS`, sends SIGINT
    /// once lab-rt's preinst runs and again once installtop took the first.
    private func forcedAbort(_ apt: APTTestRoot, options: [String], in folder: TestFolder) async throws -> RunResult {
        // Wide enough that no title is cut (a reason is wrapped whole, never cut).
        let process = try InstalltopProcess(["apt", "install", "lab-rt", "lab-kit", "--yes", "--apt-config", apt.configuration] + options, in: folder,
                                            environment: ["COLUMNS": "200"])
        try await waitUntil("lab-rt's preinst to run") { FileManager.default.fileExists(atPath: apt.root + "/tmp/held") }
        process.send(SIGINT)
        guard await eventually({ process.stderr.contains("aborting every job") }) else {
            // Once seen under a fully loaded suite: say what installtop had done by then.
            throw EndToEndError.conditionNotMet("the first SIGINT to be taken; stdout: \(process.stdout)\nstderr: \(process.stderr)")
        }
        process.send(SIGINT)
        return try await process.finish(timeout: .seconds(120))
    }

    /// What the summary and the reason say: apt hands dpkg both archives in one run, the kit's
    /// first, so the kill leaves the kit unpacked at 2.0 beside the runtime it cut.
    private func fixSentence(_ apt: APTTestRoot) -> String {
        "run `APT_CONFIG=\(apt.configuration) apt-get -f --reinstall install lab-kit lab-rt` to repair it"
    }

    @Test("Second SIGINT during the runtime's preinst, a postinst that fails once cut: exit 5, the fix command in the summary")
    func leftBroken() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot.brokenUpgrade()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let result = try await forcedAbort(apt, options: ["--plain", "--no-history"], in: folder)
        let fix = fixSentence(apt)

        #expect(result.status == 5, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        let summary = result.summaryText
        #expect(summary.contains("dpkg is left broken: run `") && summary.contains("to repair it; dpkg --audit lists problems (lab-kit unpacked but not configured at 2.0 (iU), lab-rt")
                && summary.contains(fix), "\(summary)")
        #expect(summary.contains("exit 5: dpkg was left broken (the reason of lab-kit, lab-rt above names the command that repairs it)"), "\(summary)")
        #expect(summary.components(separatedBy: "lists problems (lab-kit unpacked").count == 4,
                "the verdict under each row and once as the job's last word, not again in the exit line: \(summary)")
        // The cut package's line says each repair step with its outcome as it ends.
        let cut = result.stdout.split(separator: "\n").first { $0.contains("lab-rt aborted") } ?? ""
        #expect(cut.contains("dpkg --configure -a exited with status 1, then apt-get -f install exited with status 100") && cut.contains(fix), "\(result.stdout)")
        // The job's status text is a line when it changes (at most one a second, and always the
        // last: the repair's outcome), and the outcome stays said in the summary.
        let jobLines = result.stdout.split(separator: "\n").filter { $0.contains(" job 1 ") }
        #expect(jobLines.contains { $0.contains(": dpkg is left broken: run `") }, "\(result.stdout)")
        // With --yes apt resolves once: its downloads come before the job exists (its plan comes
        // from apt's hook after them), said on stderr; the last one is printed even when it came
        // within a second of the first.
        let downloads = result.stderr.split(separator: "\n").filter { $0.hasPrefix("installtop: downloading ") }
        #expect(downloads.first?.hasPrefix("installtop: downloading 1 of 2 · ") == true && downloads.last == "installtop: downloading 2 of 2 · 100 %",
                "\(result.stderr)")
        #expect(summary.split(separator: "\n").contains { $0.hasPrefix("job 1 ") && $0.contains(": dpkg is left broken: " + fix) }, "\(summary)")
        #expect(!(try apt.audit()).isEmpty, "the root was not left broken: the test proves nothing")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("The same in JSON and in the history: hResult 0x80242FFF, the steps as log lines, the reason with the fix command")
    func leftBrokenInJSONAndHistory() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot.brokenUpgrade()
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        let result = try await forcedAbort(apt, options: ["--json", "--json-logs", "--history-db", database], in: folder)

        #expect(result.status == 5, "\(result.stderr)")
        let events = try result.jsonEvents()
        let cut = try #require(events.first { $0.name == "update.completed" && $0.string("id") == "lab-rt" })
        #expect(cut.string("result") == "aborted" && cut.string("hResult") == "0x80242FFF", "\(cut)")
        #expect(cut.string("reason")?.contains(fixSentence(apt)) == true, "\(cut)")
        let lines = events.compactMap { $0.string("line") }
        for step in ["installtop: repairing: dpkg --configure -a", "installtop: repairing: apt-get -f install"] {
            #expect(lines.contains(step), "\(lines)")
        }
        #expect(lines.contains { $0.hasPrefix("installtop: dpkg is left broken:") }, "\(lines)")
        // The job's own status text (`jobMessage` on progress events): each step, then the outcome.
        let jobMessages = events.filter { $0.name == "progress" }.compactMap { $0.string("jobMessage") }
        #expect(jobMessages.contains("repairing: dpkg --configure -a …"), "\(jobMessages)")
        #expect(jobMessages.last?.hasPrefix("dpkg is left broken: " + fixSentence(apt)) == true, "\(jobMessages)")

        let history = try await installtop(["history", "--history-db", database, "--json", "--limit", "10"], in: folder)
        let entry = try #require(try history.jsonEvents().first { $0.string("updateId") == "lab-rt" }, "\(history.stdout) \(history.stderr)")
        #expect(entry.string("hResult") == "0x80242FFF" && entry.string("reason")?.contains(fixSentence(apt)) == true, "\(entry)")
        #expect(entry.string("outputTail")?.contains("installtop: dpkg is left broken:") == true, "\(entry)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("Second SIGINT during the runtime's preinst, a repair that completes both: every row is dpkg's final state; summary and history --update agree")
    func repairCompletesMoreThanTheCutPackage() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot.heldUpgrade(postinstFailsOnceCut: false)
        defer { apt.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let database = folder.file("history.sqlite3")
        let result = try await forcedAbort(apt, options: ["--plain", "--history-db", database], in: folder)
        #expect(result.status == 3, "stdout: \(result.stdout)\nstderr: \(result.stderr)")

        // What the operator would check it against, as the brief's words have it.
        let query = try TestCommand.check(["/usr/bin/dpkg-query", "--admindir=\(apt.root)/var/lib/dpkg", "-W", "-f=${Package} ${Version} ${db:Status-Abbrev}\n"])
        let dpkg = Dictionary(uniqueKeysWithValues: query.stdout.split(separator: "\n").map { line in
            let fields = line.split(separator: " ")
            return (String(fields[0]), (version: String(fields[1]), status: fields.dropFirst(2).joined(separator: " ")))
        })
        #expect(dpkg["lab-rt"]?.version == "2.0" && dpkg["lab-rt"]?.status == "ii", "\(query.stdout)")
        #expect(dpkg["lab-kit"]?.version == "2.0" && dpkg["lab-kit"]?.status == "ii", "\(query.stdout)")
        #expect(try apt.audit().isEmpty)

        // The cut runtime's steps depend on what apt can still fetch: its reason is checked
        // from its start (the two states) to its end (the repair's outcome).
        let expected = [
            "lab-rt": ("completed by the repair after the forced stop, which cut it: dpkg had it half-installed at 1.0 (iHR) right after the kill, "
                + "installed at 2.0 after the repair; dpkg --configure -a exited with status 1", "; repaired: dpkg --audit is clean, apt-get check passes"),
            // Unpacked before the runtime in the same dpkg run, configured by the repair.
            "lab-kit": ("completed by the repair after the forced stop, which cut it: dpkg had it unpacked but not configured at 2.0 (iU) right after the kill, "
                + "installed at 2.0 after the repair; dpkg --configure -a exited with status 1", "; repaired: dpkg --audit is clean, apt-get check passes"),
        ]
        for (package, (start, end)) in expected {
            // dpkg shows it installed at the new version: the row says it succeeded, and how.
            let row = try #require(result.summaryRow(of: package), "\(result.stdout)")
            let shown = row.line + " " + row.reason
            let reason = try #require(shown.range(of: start).map { String(shown[$0.lowerBound...]).trimmingCharacters(in: .whitespaces) }, "\(row): \(row.reason)")
            #expect(row.result == "succeeded" && reason.hasSuffix(end), "\(row): \(row.reason)")
            let history = try await installtop(["history", "--history-db", database, "--update", package, "--json"], in: folder)
            let entries = try history.jsonEvents()
            #expect(entries.count == 1, "\(history.stdout) \(history.stderr)")
            let entry = try #require(entries.first)
            #expect(entry.string("result") == "succeeded" && entry.string("reason") == reason && entry.string("newVersion") == "2.0", "\(entry)")
        }
        #expect(result.summaryExplanation?.hasPrefix("exit 3") == true, "\(result.summaryText)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
