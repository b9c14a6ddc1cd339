import Foundation
import Glibc
import Synchronization
import TestProcessSupport
import Testing

/// Signals in plain mode: the first SIGINT or SIGTERM aborts gracefully (rule 11), a second
/// kills at once (rule 12); installtop exits 3 only after every child, grandchildren
/// included, is gone.
@Suite("signals")
struct SignalTests {
    @Test("A SIGINT pending when installtop starts (sent while its parent's mask blocked it) aborts the run")
    func pendingSignalAborts() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try writeWaitingUpdate(in: folder)
        // python3 blocks SIGINT, sends it to itself and execs installtop: the signal is pending,
        // and blocked, before installtop's first instruction, whatever the machine's load.
        let launcher = """
            import os, signal, sys
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            os.kill(os.getpid(), signal.SIGINT)
            os.execv(sys.argv[1], sys.argv[1:])
            """
        let run = try InstalltopProcess(["-c", launcher, try InstalltopBinary.path(), "run", "--plain", "--no-history", "slow.yaml"],
                                        in: folder, executable: "/usr/bin/python3")
        guard await eventually({ run.stderr.contains("SIGINT: aborting every job") }) else {
            run.send(SIGKILL)
            throw EndToEndError.conditionNotMet("the pending SIGINT to be taken; stderr: \(run.stderr)")
        }
        let result = try await run.finish()
        #expect(result.status == 3, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
    }

    @Test("SIGINT or SIGTERM aborts the running update: exit 3, aborted 0x80242008, script and its child gone",
          arguments: [SIGINT, SIGTERM])
    func firstSignalAbortsGracefully(signal: Int32) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try writeWaitingUpdate(in: folder, extraUpdates: "      - {id: later, title: Never starts, install: \"touch later-ran\"}")

        let run = try InstalltopProcess(["run", "--plain", "--no-history", "slow.yaml"], in: folder)
        let pids = try await run.send(signal, whenPidsAreIn: [folder.file("script.pid"), folder.file("sleep.pid")])
        let (scriptPID, sleepPID) = (pids[0], pids[1])
        let result = try await run.finish()

        #expect(result.status == 3, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        let slow = try #require(result.summaryRow(of: "slow"), "stdout: \(result.stdout)")
        #expect(slow.result == "aborted", "\(slow)")
        #expect(slow.exit == String(128 + SIGTERM), "\(slow)")
        let later = try #require(result.summaryRow(of: "later"))
        #expect(later.result == "aborted" && later.exit == "-" && later.reason == "not started: the job was aborted", "\(later)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("later-ran")))
        #expect(processIsGone(scriptPID), "the script \(scriptPID) outlived installtop")
        #expect(processIsGone(sleepPID), "the script's sleep \(sleepPID) outlived installtop")
        #expect(run.leftovers.isEmpty, "left behind: \(run.leftovers)")
    }

    @Test("a second SIGINT kills an update that ignores SIGTERM at once: exit 3, unmapped 137")
    func secondSigintKills() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.script("stubborn.sh", """
            trap '' TERM
            sleep 300 &
            child=$!
            echo $child > sleep.pid
            echo $$ > script.pid.tmp && mv script.pid.tmp script.pid
            while kill -0 $child 2>/dev/null; do wait $child; done
            """)
        try folder.write("stubborn.yaml", """
            jobs:
              - name: Stubborn
                updates:
                  - {id: stubborn, title: Ignores SIGTERM, install: [./stubborn.sh]}
            """)

        // A grace far longer than `finish`'s deadline: exiting in time proves the escalation.
        let run = try InstalltopProcess(["run", "--plain", "--no-history", "--abort-grace", "600", "stubborn.yaml"],
                                        in: folder)
        let pids = try await run.send(SIGINT, whenPidsAreIn: [folder.file("script.pid"), folder.file("sleep.pid")])
        let (scriptPID, sleepPID) = (pids[0], pids[1])
        try await run.waitForOutput("abort requested")
        #expect(!processIsGone(scriptPID), "the script should survive SIGTERM")
        run.send(SIGINT)
        let result = try await run.finish(timeout: .seconds(60))

        #expect(result.status == 3, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stderr.contains("again"), "stderr: \(result.stderr)")
        let row = try #require(result.summaryRow(of: "stubborn"), "stdout: \(result.stdout)")
        #expect(row.result == "aborted" && row.exit == "137", "\(row)")
        #expect(processIsGone(scriptPID))
        #expect(processIsGone(sleepPID))
        #expect(run.leftovers.isEmpty, "left behind: \(run.leftovers)")
    }

    /// The race of issue 56, item 6: the run's signal relay gave the default disposition back
    /// when it ended, so a SIGINT after the jobs (while the summary was printed, the left-behind
    /// children reaped) killed installtop: exit -2 where the run said 3, the summary cut off.
    @Test("SIGINTs without pause from the running update until installtop exits: aborted and killed, then exit 3, never killed by one",
          arguments: ["--plain", "--json"])
    func signalFloodNeverKillsInstalltop(mode: String) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try writeWaitingUpdate(in: folder)
        let run = try InstalltopProcess(["run", mode, "--no-history", "slow.yaml"], in: folder)
        // From a thread of its own, once the update runs, every 200 µs, until installtop is a
        // zombie (it is this test's child, reaped only by `finish`: the id cannot change hands
        // meanwhile). Its own thread also waits for the update: an async wait can be held up
        // for minutes by other tests' blocking work, and the update then ends by itself.
        let installtop = ProcessIdentity(pid: run.pid)
        let scriptPIDFile = folder.file("script.pid")
        let sent = Atomic(0)
        let flood = Thread {
            while !FileManager.default.fileExists(atPath: scriptPIDFile), installtop.isRunning { usleep(2_000) }
            while installtop.send(SIGINT) {
                sent.add(1, ordering: .relaxed)
                usleep(200)
            }
        }
        flood.start()
        let result = try await run.finish()
        let said = "sent \(sent.load(ordering: .relaxed)) SIGINTs\nstdout: \(result.stdout)\nstderr: \(result.stderr)"
        #expect(result.status == 3, "\(said)")
        #expect(result.stderr.contains("SIGINT: aborting every job") && result.stderr.contains("SIGINT again: killing the running updates"), "\(said)")
        #expect(run.leftovers.isEmpty, "left behind: \(run.leftovers)")
    }
}
