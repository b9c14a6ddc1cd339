import APTTestSupport
import Foundation
import Testing
import TestProcessSupport

/// `installtop confirm JOB [--decline]` on a job that awaits a yes in `serve`: an undo asked for
/// over the socket (what `u` in an attached monitor sends), started or declined from the
/// command line. Private apt roots only; the host's packages are never touched.
@Suite("daemon: confirm and decline", .serialized)
struct DaemonConfirmTests {
    private static func lab(_ version: String) -> [TestPackage] {
        [TestPackage(name: "lab-app", version: version, files: ["/usr/share/lab-app/data": "app \(version)\n"])]
    }

    /// serve with a history holding run 1, an upgrade of lab-app 1.0 → 2.0 whose 1.0 only the
    /// undo folder has; then the undo of run 1 asked for through a bridge: its job number.
    private static func undoAwaitingYes(_ daemon: DaemonFixture, apt: APTTestRoot) async throws -> Int {
        try apt.publish(lab("1.0"))
        try apt.aptGet(["install", "-y", "lab-app"], check: true)
        try apt.aptGet(["clean"], check: true)
        try apt.publish(lab("2.0"))
        try FileManager.default.removeItem(atPath: apt.repository + "/" + lab("1.0")[0].fileName)
        try apt.publish([])
        let database = try #require(daemon.historyDatabase)
        let upgrade = try await installtop(["apt", "upgrade", "--yes", "--json", "--apt-config", apt.configuration, "--history-db", database],
                                           in: daemon.folder)
        #expect(upgrade.status == 0, "\(upgrade.stderr)")
        try await daemon.start(extraArguments: ["--apt-config", apt.configuration])
        let commands = try daemon.folder.write("undo.jsonl", #"{"command":"undo","run":1,"id":1}"# + "\n")
        let bridge = try InstalltopProcess(
            ["-c", "exec '\(try InstalltopBinary.path())' bridge --socket '\(daemon.socket)' < '\(commands)'"],
            in: daemon.folder, executable: "/bin/sh")
        let ended = try await bridge.finish(timeout: .seconds(180))
        let reply = JSONEvent(line: String(ended.stdout.split(separator: "\n").first ?? ""))
        #expect(reply.string("reply") == "undo" && reply.bool("ok") == true, "\(ended.stdout)\(ended.stderr)")
        let job = try #require(reply.int("job"), "\(ended.stdout)")
        let queued = try #require(try await daemon.statusJob(job))
        #expect(queued["state"] as? String == "queued" && (queued["name"] as? String)?.hasPrefix("apt undo 1 · 1 to downgrade") == true,
                "\(queued)")
        #expect(try apt.states()["lab-app"]?.version == "2.0", "nothing runs before the yes")
        // In words, as the board says it: not a plain `queued`.
        let text = try await daemon.run(["status"])
        #expect(text.stdout.contains("awaiting yes"), "\(text.stdout)")
        return job
    }

    @Test("confirm starts the undo the engine planned: lab-app back at 1.0; a second confirm is refused")
    func confirmStartsTheUndo() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let daemon = try DaemonFixture(history: true)
        defer { daemon.remove() }
        let job = try await Self.undoAwaitingYes(daemon, apt: apt)

        let confirmed = try await daemon.run(["confirm", String(job)])
        #expect(confirmed.status == 0 && confirmed.stdout == "job \(job): confirmed, it may start\n", "\(confirmed.stdout)\(confirmed.stderr)")
        try await daemon.waitForJob(job, state: "succeeded")
        #expect(try apt.states()["lab-app"]?.version == "1.0")
        #expect(try apt.audit().isEmpty)
        let again = try await daemon.run(["confirm", String(job)])
        #expect(again.status == 1 && !again.stderr.isEmpty, "\(again.stderr)")
        let unknown = try await daemon.run(["confirm", "99", "--decline"])
        #expect(unknown.status == 1 && unknown.stderr.contains("99"), "\(unknown.stderr)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }

    @Test("confirm --decline: the undo leaves without running, lab-app stays at 2.0, and run 1 can still be undone")
    func declineLeavesEverything() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        let daemon = try DaemonFixture(history: true)
        defer { daemon.remove() }
        let job = try await Self.undoAwaitingYes(daemon, apt: apt)

        let declined = try await daemon.run(["confirm", String(job), "--decline"])
        #expect(declined.status == 0 && declined.stdout == "job \(job): declined, it leaves without running\n", "\(declined.stdout)\(declined.stderr)")
        let gone = try await eventually(timeout: .seconds(180)) { try await daemon.statusJob(job) == nil }
        #expect(gone, "a declined job leaves the queue")
        #expect(try apt.states()["lab-app"]?.version == "2.0")
        let database = try #require(daemon.historyDatabase)
        let runs = try await installtop(["history", "--jobs", "--json", "--history-db", database], in: daemon.folder).jsonObjects()
        #expect(runs.count == 1 && runs.first?["undoable"] as? Bool == true, "a declined undo is no run and undoes nothing: \(runs)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
