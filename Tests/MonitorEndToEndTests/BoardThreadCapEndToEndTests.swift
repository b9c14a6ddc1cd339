import APTTestSupport
import Foundation
import Glibc
import Testing

/// Issue 58's cap on threads, on the real binary: an engine running 1,000 updates at once, and a
/// board attached to 200 hosts (one of them that engine), each keeps a few threads of its own,
/// whatever the number of updates and hosts. A thread per update or per host would add
/// hundreds; the engine's children and timers are on one reactor, the board's host links on one
/// thread (`HostsEngineLink`).
@Suite("Threads: 1,000 concurrent updates and 200 attached hosts, end to end", .serialized)
struct BoardThreadCapEndToEndTests {
    /// The hosts on the board.
    private static let hosts = 200
    /// The updates the busy engine runs at once.
    private static let updates = 1_000

    @Test("an engine running 1,000 updates at once and a board of 200 hosts following it each stay under 40 threads")
    func threadsStayFew() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let binary = try EndToEndFolder.binary()
        let quietAPT = try APTTestRoot(folder: folder.path("quiet-apt"))
        var engines: [InstalltopChild] = []
        // SIGTERM (each engine aborts its jobs, then exits), SIGKILL after 5 s.
        defer { engines.removeAll() }
        engines = try await folder.startEngines(["busy", "quiet"], apt: quietAPT,
                                                extra: ["busy": ["--concurrency", "\(Self.updates)"]])
        let busy = engines[0]

        try folder.write("sleep.sh", "#!/bin/sh\nexec sleep 900\n", executable: true)
        let jobs = (0..<Self.updates).map { index in
            "  - name: Sleep \(index)\n    updates:\n      - {id: sleep-\(index), title: Sleep, install: [\(folder.path("sleep.sh"))]}"
        }
        try folder.write("many.yaml", "jobs:\n" + jobs.joined(separator: "\n") + "\n")
        let submitted = try await InstalltopChild.run(["submit", folder.path("many.yaml"), "--socket", folder.path("busy.sock")], in: folder)
        #expect(submitted.status == 0, "\(submitted.stderr)")
        let allRunning = await EndToEndFolder.eventually(timeout: .seconds(300)) { Self.children(of: busy.pid) >= Self.updates }
        #expect(allRunning, "\(Self.children(of: busy.pid)) of \(Self.updates) updates running")

        // The stand-in for ssh: h0 is the busy engine, every other host the quiet one.
        try FileManager.default.createDirectory(atPath: folder.path("bin"), withIntermediateDirectories: true)
        try folder.write("bin/ssh", """
            #!/bin/sh
            while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
            case $2 in
              h0) exec '\(binary)' bridge --socket '\(folder.url.path)/busy.sock' ;;
              *) exec '\(binary)' bridge --socket '\(folder.url.path)/quiet.sock' ;;
            esac
            """, executable: true)
        try folder.write("hosts.ini", "[all]\nh[0:\(Self.hosts - 1)]\n")
        let command = "sh -c 'echo $$ > \"\(folder.path("attach.pid"))\"; PATH=\"\(folder.path("bin")):$PATH\" exec \"\(binary)\" attach --hosts \"\(folder.path("hosts.ini"))\"'"
            + " 2> '\(folder.path("attach.err"))'; \(folder.exitStatus(to: "rc")); sleep 3600"
        let tmux = try TmuxSession(width: 160, height: 50, home: folder.url, command: command)
        defer { tmux.close() }
        let board = await tmux.waitForScreen("every host on the board, h0 installing", timeout: .seconds(300)) { screen in
            screen.contains("\(Self.hosts) hosts ·") && screen.contains("1 installing") && !screen.contains("unreachable")
                && !screen.contains("connecting")
        }
        #expect(board != nil, "\(folder.read("attach.err") ?? "")")
        let attach = try #require(folder.read("attach.pid").flatMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        // The shell that wrote the pid became the board (exec): that is the process counted.
        #expect((try? String(contentsOfFile: "/proc/\(attach)/comm", encoding: .utf8))?.hasPrefix("installtop") == true)

        // The most threads each had over a few samples, with every update running and every
        // host's link up and following its engine.
        var engineThreads = 0
        var boardThreads = 0
        for _ in 0..<20 {
            engineThreads = max(engineThreads, Self.threads(of: busy.pid))
            boardThreads = max(boardThreads, Self.threads(of: attach))
            try await Task.sleep(for: .milliseconds(100))
        }
        print("threads with \(Self.children(of: busy.pid)) updates running: engine \(engineThreads), board of \(Self.hosts) hosts \(boardThreads)")
        #expect(Self.children(of: busy.pid) >= Self.updates, "every update still running while the threads were counted")
        // The engine: its workers, reactor, blocking pool (at most 16), event and server
        // threads, the pending keeper and Dispatch's few; the board: its loop, the link's one
        // thread, the blocking pool and Dispatch's few. Both are bounded by design, not by load.
        #expect(engineThreads > 0 && engineThreads < 40, "the engine ran \(engineThreads) threads")
        #expect(boardThreads > 0 && boardThreads < 40, "the board ran \(boardThreads) threads")

        tmux.send("q")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(folder.read("attach.err") ?? "")")
    }

    /// The number of threads of process `pid` now (`/proc/PID/task`), 0 when it is gone.
    private static func threads(of pid: pid_t) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []).count
    }

    /// The number of children of process `pid` now, whichever of its threads started them.
    private static func children(of pid: pid_t) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.reduce(0) { count, task in
            let listed = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
            return count + listed.split(separator: " ").count
        }
    }
}
