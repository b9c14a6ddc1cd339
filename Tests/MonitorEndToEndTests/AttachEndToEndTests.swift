import APTTestSupport
import Foundation
import Glibc
import Testing

/// `installtop attach` in tmux against a real `installtop serve`: detach and come back, an
/// action in one monitor shows in another, the engine going away ends the monitor.
@Suite("Attach end to end", .serialized)
struct AttachEndToEndTests {
    /// Says something on stdout (for the log pane), then reports progress until it is aborted
    /// (at most half an hour). A job of one minute once ended before a loaded CI machine got to
    /// the abort key, so the test's own pace must not decide whether there is a job to abort.
    private static let slowScript = """
        #!/bin/sh
        echo "said before anyone attached"
        i=0
        while [ $i -lt 18000 ]; do
            echo "progress $((i / 180)) step $i" >&3
            i=$((i + 1))
            sleep 0.1
        done
        """

    /// The pane's command: attach, then leave the exit status and stderr in `NAME.rc`/`NAME.err`.
    private func attachCommand(_ name: String, socket: String, in folder: EndToEndFolder) throws -> String {
        let binary = try EndToEndFolder.binary()
        return "'\(binary)' attach --socket '\(socket)' 2> '\(folder.path(name + ".err"))'; "
            + "\(folder.exitStatus(to: name + ".rc")); sleep 3600"
    }

    /// Starts `serve` on `engine.sock` in `folder` (made 0700) and submits one job of one
    /// update that runs `script`; returns the serve process.
    private func serveOneJob(
        _ name: String, update: String, script: String, in folder: EndToEndFolder, serveArguments: [String] = []
    ) async throws -> InstalltopChild {
        chmod(folder.url.path, 0o700)
        let socket = folder.path("engine.sock")
        try folder.write("\(update).sh", script, executable: true)
        try folder.write("manifest.yaml", """
            jobs:
              - name: \(name)
                updates:
                  - {id: \(update), title: \(update) update, install: [\(folder.path("\(update).sh"))]}
            """)
        // The dpkg of an empty private root: an apt run on the host is no job of this engine.
        let quietAPT = try APTTestRoot(folder: folder.path("quiet-apt"))
        let serve = try InstalltopChild(
            ["serve", "--socket", socket, "--no-history", "--apt-config", quietAPT.configuration] + serveArguments, in: folder)
        #expect(await EndToEndFolder.eventually { serve.stderr.contains("serving on \(socket)") }, "serve started: \(serve.stderr)")
        let submitted = try await InstalltopChild.run(["submit", folder.path("manifest.yaml"), "--socket", socket], in: folder)
        #expect(submitted.status == 0, "\(submitted.stderr)")
        return serve
    }

    /// Waits for `NAME.rc` and returns the exit status in it.
    private func exitStatus(_ name: String, in folder: EndToEndFolder) async -> Int? {
        _ = await EndToEndFolder.eventually { folder.read(name + ".rc") != nil }
        return folder.read(name + ".rc").flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @Test func detachReattachAbortFromAnotherMonitorAndEngineGone() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let socket = folder.path("engine.sock")
        let serve = try await serveOneJob("Slow job", update: "slow", script: Self.slowScript, in: folder)

        // Attach, see the job, detach: the monitor exits 0 and the job keeps running.
        let first = try TmuxSession(home: folder.url, command: try attachCommand("first", socket: socket, in: folder))
        defer { first.close() }
        await first.waitForScreen("the running job and the detach key") {
            $0.contains("Slow job") && $0.contains("step ") && $0.contains("d detach")
        }
        first.send("d")
        #expect(await exitStatus("first", in: folder) == 0, "detaching exits 0: \(folder.read("first.err") ?? "")")
        let status = try await InstalltopChild.run(["status", "--socket", socket], in: folder)
        #expect(status.status == 0 && status.stdout.contains("running") && status.stdout.contains("Slow job"), "\(status.stdout)")

        // Attach again: the full state at once, output from before included.
        let second = try TmuxSession(home: folder.url, command: try attachCommand("second", socket: socket, in: folder))
        defer { second.close() }
        await second.waitForScreen("the job with its progress and its earlier output") {
            $0.contains("Slow job") && $0.contains("step ") && $0.contains("said before anyone attached")
        }

        // Abort in a third monitor: the second shows it.
        let third = try TmuxSession(home: folder.url, command: try attachCommand("third", socket: socket, in: folder))
        defer { third.close() }
        await third.waitForScreen("the job in the third monitor") { $0.contains("Slow job") && $0.contains("step ") }
        third.send("a")
        await third.waitForScreen("the abort question") { $0.contains("Abort Slow job?") }
        third.send("y")
        await second.waitForScreen("the abort in the second monitor") { $0.contains("⊘ Slow job") && $0.contains("aborted") }
        let aborted = try await InstalltopChild.run(["status", "--socket", socket], in: folder)
        #expect(aborted.stdout.contains("aborted"), "\(aborted.stdout)")

        // The engine goes: both monitors end with exit 1 and say why.
        kill(serve.pid, SIGTERM)
        #expect(await serve.finish() == 0, "serve stops with 0: \(serve.stderr)")
        for name in ["second", "third"] {
            #expect(await exitStatus(name, in: folder) == 1, "\(name): \(folder.read(name + ".err") ?? "")")
            #expect(folder.read(name + ".err")?.contains("installtop: the engine on \(socket) closed the connection") == true,
                    "\(name): \(folder.read(name + ".err") ?? "")")
        }
    }

    @Test func aMonitorKilledWithSIGKILLLeavesTheJobRunning() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let socket = folder.path("engine.sock")
        // Runs until the file `go` appears, so the test decides when it ends.
        let serve = try await serveOneJob("Gated job", update: "gated", script: """
            #!/bin/sh
            echo "progress 10 waiting" >&3
            while [ ! -e '\(folder.path("go"))' ]; do sleep 0.05; done
            echo "progress 100 done" >&3
            """, in: folder)

        let monitor = try TmuxSession(home: folder.url, command: try attachCommand("monitor", socket: socket, in: folder))
        defer { monitor.close() }
        await monitor.waitForScreen("the running job") { $0.contains("Gated job") && $0.contains("waiting") }
        let attach = Self.processes(withArguments: ["attach", "--socket", socket])
        try #require(attach.count == 1, "the attach process was found: \(attach)")
        kill(attach[0], SIGKILL)
        #expect(await exitStatus("monitor", in: folder) == 128 + Int(SIGKILL), "the monitor died of SIGKILL")

        // The engine saw only a closed connection: the job runs on and ends well.
        let running = try await InstalltopChild.run(["status", "--socket", socket], in: folder)
        #expect(running.stdout.contains("running") && running.stdout.contains("Gated job"), "\(running.stdout)")
        try folder.write("go", "")
        var finished = false
        for _ in 0..<200 where !finished {
            let status = try await InstalltopChild.run(["status", "--socket", socket], in: folder)
            finished = status.stdout.contains("succeeded")
            if !finished { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(finished, "the job completed after its monitor was killed")
        kill(serve.pid, SIGTERM)
        #expect(await serve.finish() == 0, "\(serve.stderr)")
    }

    @Test func aStoppedMonitorIsClosedByTheEngineAndConnectsAgainWhenItRunsAgain() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let socket = folder.path("engine.sock")
        // Floods its output until the file `go` appears: events keep waiting for a stopped monitor.
        let serve = try await serveOneJob("Flood job", update: "flood", script: """
            #!/bin/sh
            echo "progress 10 flooding" >&3
            line=$(printf '%0200d' 0)
            while [ ! -e '\(folder.path("go"))' ]; do yes "$line" | head -n 2000; sleep 0.01; done
            """, in: folder, serveArguments: ["--idle-reader-timeout", "2"])

        let monitor = try TmuxSession(home: folder.url, command: try attachCommand("monitor", socket: socket, in: folder))
        defer { monitor.close() }
        await monitor.waitForScreen("the running job") { $0.contains("Flood job") && $0.contains("flooding") }
        let attach = Self.processes(withArguments: ["attach", "--socket", socket])
        try #require(attach.count == 1, "the attach process was found: \(attach)")
        kill(attach[0], SIGSTOP)
        let closed = await EndToEndFolder.eventually { serve.stderr.contains("closed: it read nothing for 2 s") }
        kill(attach[0], SIGCONT)
        #expect(closed, "serve closed the stopped monitor: \(serve.stderr)")
        // The monitor says why and shows the engine's queue again, still attached (issue 34: a
        // peer closed for reading nothing connects again).
        if await monitor.waitForScreen("the monitor connected again", { $0.contains("connected again") && $0.contains("Flood job") }) == nil {
            Issue.record("serve said: \(serve.stderr)")
        }
        #expect(Self.processes(withArguments: ["attach", "--socket", socket]) == attach, "the same monitor runs on")
        try folder.write("go", "")
        if await monitor.waitForScreen("the job completed", { $0.contains("succeeded") }) == nil {
            Issue.record("serve said: \(serve.stderr)")
        }
        monitor.send("d")
        #expect(await exitStatus("monitor", in: folder) == 0, "\(folder.read("monitor.err") ?? "")")
        kill(serve.pid, SIGTERM)
        #expect(await serve.finish() == 0, "\(serve.stderr)")
    }

    /// The pids of the processes whose command line contains `arguments` in a row.
    private static func processes(withArguments arguments: [String]) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            let words = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard words.count >= arguments.count else { return nil }
            let matches = (0...(words.count - arguments.count)).contains { Array(words[$0..<($0 + arguments.count)]) == arguments }
            return matches ? pid : nil
        }
    }

    @Test func attachWithoutAnEngineExits1() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let socket = folder.path("engine.sock")
        let tmux = try TmuxSession(home: folder.url, command: try attachCommand("attach", socket: socket, in: folder))
        defer { tmux.close() }
        #expect(await exitStatus("attach", in: folder) == 1)
        #expect(folder.read("attach.err")?.contains("no engine is serving on \(socket)") == true, "\(folder.read("attach.err") ?? "")")
    }
}
