import APTTestSupport
import Foundation
import Glibc
import Testing

/// A kill from outside in a job started without `--yes`, in a real terminal (tmux) in a private
/// apt root (issue 47): the plan dialog's `y` starts the planned transaction, the test SIGKILLs
/// dpkg while lab-rt 2.0's preinst waits, and the monitor shows the forced stop's repair; the
/// summary says what ended the transaction, installtop exits 3, dpkg's audit is clean and the
/// history agrees with dpkg. The host's packages are never touched.
@Suite("installtop apt in the monitor: dpkg killed from outside", .serialized)
struct APTKillMonitorEndToEndTests {
    /// The pids of the `dpkg` processes acting on `root` (apt passes it `--root=ROOT`): this
    /// test's own, since the root is its own folder.
    private static func dpkgProcesses(in root: String) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            guard let command = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8), command == "dpkg\n",
                  let line = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            return line.split(separator: 0).contains { String(decoding: $0, as: UTF8.self) == "--root=\(root)" }
        }
    }

    @Test("y in the plan dialog, dpkg SIGKILLed in lab-rt's preinst: the repair shown, the summary names the kill, exit 3, the audit clean")
    func dpkgKilledAfterTheDialog() async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot.heldUpgrade(postinstFailsOnceCut: false)
        defer { apt.remove() }
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let database = folder.path("history.sqlite3")
        let binary = try EndToEndFolder.binary()
        let tmux = try TmuxSession(width: 200, height: 30, home: folder.url, command:
            "'\(binary)' apt upgrade --history-db '\(database)' --apt-config '\(apt.configuration)'; \(folder.exitStatus(to: "rc")); sleep 3600")
        defer { tmux.close() }

        await tmux.waitForScreen("the plan's question") { $0.contains("Start apt upgrade") }
        tmux.send("y")
        #expect(await EndToEndFolder.eventually { FileManager.default.fileExists(atPath: apt.root + "/tmp/held") })
        let dpkg = Self.dpkgProcesses(in: apt.root)
        #expect(dpkg.count == 1, "one dpkg runs lab-rt's preinst: \(dpkg)")
        for pid in dpkg { kill(pid, SIGKILL) }

        let ended = await tmux.waitForScreen("the job ended after its repair") { $0.contains("0 running") && $0.contains("aborted") }
        #expect(ended != nil)
        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "3", "\(tmux.capture())")
        // The summary left on the normal screen (tmux wraps what is wider than its window).
        let screen = tmux.capture().replacingOccurrences(of: "\n    ", with: " ").replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("dpkg was killed by a signal during lab-rt's preinst"), "\(tmux.capture())")
        #expect(screen.contains("repaired: dpkg --audit is clean"), "\(tmux.capture())")
        #expect(try apt.audit().isEmpty)
        #expect(Self.dpkgProcesses(in: apt.root).isEmpty, "nothing of the transaction is left running")

        // The record agrees with dpkg: each package's row succeeded (with errors: the repair completed
        // it) exactly when dpkg has it at 2.0.
        let states = try apt.states()
        let history = try TestCommand.run([binary, "history", "--json", "--history-db", database])
        let rows = history.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        for package in ["lab-rt", "lab-kit"] {
            let done = states[package].map { $0.status == "ii" && $0.version == "2.0" } ?? false
            let row = rows.first { $0["updateId"] as? String == package }
            let succeeded = ["succeeded", "succeededWithErrors"].contains(row?["result"] as? String ?? "")
            #expect(row != nil && succeeded == done, "\(package): dpkg \(states[package]?.description ?? "none"), row \(row ?? [:])")
        }
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
