import APTTestSupport
import Foundation
import Glibc
import Testing

/// `installtop apt upgrade` at a terminal with the machine's engine running on the same root
/// (a serve on a private root and socket, named by `INSTALLTOP_MACHINE_SOCKET`): the monitor
/// attaches to that engine, the plan dialog asks there, and the command exits as the job ended.
@Suite("installtop apt in the machine's engine, at a terminal", .serialized)
struct APTInEngineMonitorEndToEndTests {
    @Test("y in the plan dialog runs the job in the engine; the monitor closes at its end with the summary; n declines it (exit 1, nothing changed)")
    func planDialogInTheEngine() async throws {
        let host = HostPackageFingerprint()
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let apt = try APTTestRoot(folder: folder.path("apt"))
        try apt.publish([TestPackage(name: "lab-base", version: "1.0")])
        try apt.aptGet(["install", "-y", "lab-base"], check: true)
        try apt.publish([TestPackage(name: "lab-base", version: "2.0")])
        let socket = folder.path("engine.sock")
        let history = folder.path("history.sqlite3")
        let serve = try InstalltopChild(["serve", "--socket", socket, "--history-db", history, "--apt-config", apt.configuration], in: folder)
        defer {
            kill(serve.pid, SIGTERM)
            _ = serve.poll()
        }
        #expect(await EndToEndFolder.eventually { serve.stderr.contains("serving on \(socket)") }, "serve started: \(serve.stderr)")
        let binary = try EndToEndFolder.binary()
        let command = { (name: String) in
            "INSTALLTOP_MACHINE_SOCKET='\(socket)' '\(binary)' apt upgrade --apt-config '\(apt.configuration)'; \(folder.exitStatus(to: name)); sleep 3600"
        }

        let declining = try TmuxSession(width: 120, height: 30, home: folder.url, command: command("declined.rc"))
        defer { declining.close() }
        let asked = await declining.waitForScreen("the plan's question") { $0.contains("Start apt upgrade") }
        #expect(asked != nil)
        declining.send("n")
        #expect(await EndToEndFolder.eventually { folder.read("declined.rc") != nil })
        #expect(folder.read("declined.rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        #expect(try apt.states()["lab-base"]?.version == "1.0")

        let tmux = try TmuxSession(width: 120, height: 30, home: folder.url, command: command("rc"))
        defer { tmux.close() }
        // The status line says where the job runs only for a while; the first line on the
        // normal screen says it for good (checked below).
        _ = await tmux.waitForScreen("the plan's question") { $0.contains("Start apt upgrade") }
        tmux.send("y")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil }, "the monitor closes when the job ends: \(tmux.capture())")
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        // With the scrollback: the restart advice above the summary lists every process on
        // this machine that runs replaced code, and other tests' processes can push the first
        // line off the screen.
        _ = await tmux.waitForScreen("the summary on the normal screen") { $0.contains("exit 0") }
        let after = tmux.captureWithScrollback()
        #expect(after.contains("runs in the machine's engine") && after.contains("lab-base"), "\(after)")
        #expect(try apt.states()["lab-base"]?.version == "2.0")
        let runs = try await InstalltopChild.run(["history", "--jobs", "--json", "--history-db", history], in: folder)
        #expect(runs.stdout.split(separator: "\n").count == 1 && runs.stdout.contains("\"undoable\":true"), "the engine's one run: \(runs.stdout)")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
