import EngineDaemon
import EngineWire
import Foundation
import Glibc

/// `installtop attach` timed as an operator meets it: the release binaries (`installtop serve`
/// with 10,000 finished updates, then `installtop attach` on a 200×60 pseudo-terminal), from
/// starting the attach process to the first frame that shows the queue. Build both first:
/// `swift build -c release`.
enum AttachThroughTerminalBenchmark {
    static func run() async {
        let installtop = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("installtop").path
        guard FileManager.default.isExecutableFile(atPath: installtop) else {
            print("  needs \(installtop): run `swift build -c release` first")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("installtop-bench-pty-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let socket = folder + "/engine.sock"
        var manifest = "jobs:\n"
        for job in 1...100 {
            manifest += "  - name: Job \(job)\n    updates:\n"
            for update in 0..<100 { manifest += "      - {id: u\(job)-\(update), title: Update \(update) of job \(job), install: [/bin/true]}\n" }
        }
        guard FileManager.default.createFile(atPath: folder + "/manifest.yaml", contents: Data(manifest.utf8)) else {
            print("  cannot write the manifest in \(folder)")
            return
        }

        guard let serve = launch(installtop, ["serve", "--socket", socket, "--no-history", "--concurrency", "4"]) else { return }
        defer {
            serve.terminate()
            serve.waitUntilExit()
        }
        guard await waitUntil({ FileManager.default.fileExists(atPath: socket) }),
            let submit = launch(installtop, ["submit", folder + "/manifest.yaml", "--socket", socket])
        else {
            print("  serve did not start")
            return
        }
        submit.waitUntilExit()
        guard await waitUntil({ finishedJobs(socket) == 100 }) else {
            print("  the 100 jobs did not finish")
            return
        }

        var times: [Double] = []
        for _ in 0..<10 {
            if let milliseconds = timeFirstFrame(installtop, socket: socket) { times.append(milliseconds) }
        }
        guard !times.isEmpty else {
            print("  no attach showed the queue")
            return
        }
        times.sort()
        print("  installtop attach on a 200×60 terminal to 10,000 finished updates, process start to first frame:")
        print("  median \(String(format: "%.1f", times[times.count / 2])) ms, best \(String(format: "%.1f", times[0])) ms, worst \(String(format: "%.1f", times[times.count - 1])) ms of \(times.count) (goal ≤ 100 ms)")
    }

    /// Starts `installtop attach` on a new pseudo-terminal and returns the milliseconds until
    /// its output shows the queue's header ("100 jobs"); then detaches with `d`.
    private static func timeFirstFrame(_ installtop: String, socket: String) -> Double? {
        let started = ContinuousClock.now
        // TerminalChild spawns with posix_spawn: Foundation's Process would add its own start-up.
        guard let attach = TerminalChild([installtop, "attach", "--socket", socket],
                                         environment: ["TERM=xterm-256color", "LANG=C.UTF-8", "PATH=/usr/bin:/bin"])
        else { return nil }
        defer { attach.quit(typing: "d") }
        guard attach.waitForOutput("100 jobs", timeout: .seconds(10)) else { return nil }
        let elapsed = ContinuousClock.now - started
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// How many jobs of the engine's queue have completed, read from a snapshot.
    private static func finishedJobs(_ socket: String) -> Int {
        guard let client = try? EngineClient(path: socket), (try? client.send(.subscribe)) != nil else { return 0 }
        defer { client.close() }
        var finished = 0
        while let message = try? client.nextMessage(timeout: .seconds(5)) {
            switch message {
            case .event(let event):
                if case .jobCompleted = event.kind { finished += 1 }
            case .snapshotEnd:
                return finished
            default:
                break
            }
        }
        return finished
    }

    private static func launch(_ executable: String, _ arguments: [String]) -> Process? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            return process
        } catch {
            print("  cannot start \(executable): \(error)")
            return nil
        }
    }

    private static func waitUntil(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }
}
