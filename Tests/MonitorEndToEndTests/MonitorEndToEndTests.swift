import Foundation
import TestProcessSupport
import Testing

/// The real binary in a real terminal (tmux): keys, resizes, signals, hostile output, and the
/// terminal handed back sane. Serialized: each test starts a tmux server and child processes.
@Suite("Monitor end to end", .serialized)
struct MonitorEndToEndTests {
    // MARK: - Fixtures

    /// A script that records its pid (its process group) and reports progress for half an hour:
    /// the tests abort it, and a loaded machine must not let it end first.
    private static let slowScript = """
        #!/bin/sh
        echo $$ > "$1"
        i=0
        while [ $i -lt 18000 ]; do
            echo "progress $((i / 180)) step $i" >&3
            i=$((i + 1))
            sleep 0.1
        done
        """

    /// Writes `manifest.yaml` with the given jobs section and the slow script beside it.
    private func manifest(in folder: EndToEndFolder, jobs: String) throws -> String {
        try folder.write("slow.sh", Self.slowScript, executable: true)
        try folder.write("manifest.yaml", "jobs:\n" + jobs)
        return folder.path("manifest.yaml")
    }

    private func slowJob(_ folder: EndToEndFolder) -> String {
        """
          - name: Slow job
            updates:
              - id: slow
                title: Slow update
                install: [\(folder.path("slow.sh")), \(folder.path("slow.pid"))]

        """
    }

    private let quickJob = """
          - name: Quick job
            updates:
              - id: quick
                title: Quick update
                install: "true"

        """

    /// `installtop run MANIFEST`, then its exit status and `stty -a` into files of `folder`.
    private func runCommand(_ manifest: String, in folder: EndToEndFolder, prefix: String = "", options: String = "") throws -> String {
        let binary = try EndToEndFolder.binary()
        return "\(prefix)'\(binary)' run '\(manifest)' --no-history \(options); \(folder.exitStatus(to: "rc")); "
            + "stty -a > '\(folder.path("stty.tmp"))'; mv '\(folder.path("stty.tmp"))' '\(folder.path("stty"))'; sleep 3600"
    }

    /// `installtop run` of the slow job in tmux, once its progress shows: the session (closed by
    /// the caller), the update's process group and installtop's pid.
    private func startSlowJob(in folder: EndToEndFolder, prefix: String = "") async throws -> (tmux: TmuxSession, pgid: Int32, monitor: Int32) {
        let manifest = try manifest(in: folder, jobs: slowJob(folder))
        let tmux = try TmuxSession(home: folder.url, command: try runCommand(manifest, in: folder, prefix: prefix))
        await tmux.waitForScreen("the slow update's progress") { $0.contains("step ") }
        guard let pgid = folder.read("slow.pid").flatMap({ Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }),
              let monitor = installtopProcess(of: tmux) else {
            tmux.close()
            throw EndToEndError("the slow update or installtop did not show up")
        }
        return (tmux, pgid, monitor)
    }

    /// True when no process is left in the process group `pgid`.
    private func groupIsGone(_ pgid: Int32) -> Bool {
        kill(-pgid, 0) == -1 && errno == ESRCH
    }

    /// Waits for the program to end; checks it gave back echo and canonical input.
    private func expectSaneTerminalAfterExit(_ folder: EndToEndFolder, sourceLocation: SourceLocation = #_sourceLocation) async -> Int? {
        let ended = await EndToEndFolder.eventually { folder.read("stty") != nil }
        #expect(ended, "installtop did not exit", sourceLocation: sourceLocation)
        let flags = (folder.read("stty") ?? "").split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        #expect(flags.contains("echo") && !flags.contains("-echo"), "echo is back", sourceLocation: sourceLocation)
        #expect(flags.contains("icanon") && !flags.contains("-icanon"), "canonical input is back", sourceLocation: sourceLocation)
        return folder.read("rc").flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    // MARK: - Tests

    @Test func demoShowsBarsMoving() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let binary = try EndToEndFolder.binary()
        // Five times slower than the demo's own pace: on a loaded CI machine the whole demo once
        // ran to its end between two looks at the screen, and a running update is what this
        // test must see.
        let tmux = try TmuxSession(home: folder.url, command: "INSTALLTOP_DEMO_SPEED=0.2 '\(binary)' demo --no-history; sleep 3600")
        defer { tmux.close() }
        let first = try #require(await tmux.waitForScreen("a running update with a bar") {
            $0.contains(" installtop ") && $0.contains("▶") && $0.contains("█")
        })
        let header = first.split(separator: "\n").first.map(String.init) ?? ""
        await tmux.waitForScreen("the overall progress to move") { $0.split(separator: "\n").first.map(String.init) != header }
        tmux.send("q")
        await tmux.waitForScreen("the quit question") { $0.contains("Quit and abort") }
        tmux.send("y")
    }

    @Test("an update that prints nothing: its elapsed time counts up with no key pressed")
    func quietUpdateCountsUp() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let manifest = try manifest(in: folder, jobs: """
              - name: Quiet job
                updates:
                  - id: quiet
                    title: Quiet update
                    install: [sleep, "60"]
                    progress: none

            """)
        let tmux = try TmuxSession(home: folder.url, command: try runCommand(manifest, in: folder))
        defer { tmux.close() }
        await tmux.waitForScreen("the quiet update running") { $0.contains("▶ Quiet update") }
        let elapsed = #/Quiet update.*\s0:(0[2-9]|[1-5]\d)\s/#
        await tmux.waitForScreen("its elapsed time to reach 0:02") { $0.contains(elapsed) }
        tmux.send("q")
        await tmux.waitForScreen("the quit question") { $0.contains("Quit and abort") }
        tmux.send("y")
        #expect(await expectSaneTerminalAfterExit(folder) == 3)
    }

    @Test func abortConfirmedEndsTheJobAbortedWithNoChildLeft() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let manifest = try manifest(in: folder, jobs: slowJob(folder) + quickJob)
        let tmux = try TmuxSession(home: folder.url, command: try runCommand(manifest, in: folder))
        defer { tmux.close() }
        await tmux.waitForScreen("the slow update's progress") { $0.contains("step ") }
        let pgid = try #require(folder.read("slow.pid").flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        tmux.send("a")
        await tmux.waitForScreen("the abort question") { $0.contains("Abort Slow job?") }
        #expect(!groupIsGone(pgid), "nothing is aborted before the answer")
        tmux.send("y")
        await tmux.waitForScreen("the job aborted") { $0.contains("⊘ Slow job") && $0.contains("aborted") }
        #expect(await EndToEndFolder.eventually { groupIsGone(pgid) }, "no process of the aborted update is left")
        await tmux.waitForScreen("the quick job to run next") { $0.contains("✔ Quick job") }
        tmux.send("q")
        #expect(await expectSaneTerminalAfterExit(folder) == 3, "an aborted job makes the run exit with 3")
    }

    @Test("after q the results stay on the normal screen, as --plain prints them")
    func quitLeavesTheSummary() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let manifest = try manifest(in: folder, jobs: quickJob)
        let tmux = try TmuxSession(home: folder.url, command: try runCommand(manifest, in: folder))
        defer { tmux.close() }
        await tmux.waitForScreen("the quick job done") { $0.contains("✔ Quick job") }
        tmux.send("q")
        #expect(await expectSaneTerminalAfterExit(folder) == 0)
        let screen = try #require(await tmux.waitForScreen("the summary") { $0.contains("Summary") })
        #expect(screen.contains("1 job, 1 update: 1 succeeded"), "\(screen)")
        let lines = screen.split(separator: "\n")
        #expect(lines.contains("job 1 Quick job") && lines.contains { $0.hasPrefix("quick ") && $0.contains("succeeded") },
                "the job's name above its row: \(screen)")
        #expect(screen.contains("exit 0: every update succeeded"), "\(screen)")
        #expect(!screen.contains("┌ Jobs"), "the monitor's frame is gone")
    }

    @Test func cleanUpRemovesAFinishedJob() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let manifest = try manifest(in: folder, jobs: quickJob + slowJob(folder))
        let tmux = try TmuxSession(home: folder.url, command: try runCommand(manifest, in: folder))
        defer { tmux.close() }
        // The selection follows the work to the slow job: back to the quick one.
        await tmux.waitForScreen("the quick job done, the slow one selected") { $0.contains("✔ Quick job") && $0.contains("┌ Slow job ·") }
        tmux.send("k")
        await tmux.waitForScreen("the quick job selected") { $0.contains("┌ Quick job ·") }
        tmux.send("c")
        await tmux.waitForScreen("the quick job gone from the panes") { screen in
            let panes = screen.split(separator: "\n").dropFirst().dropLast()
            return !panes.contains { $0.contains("Quick job") } && panes.contains { $0.contains("Slow job") }
        }
        tmux.send("q")
        await tmux.waitForScreen("the quit question") { $0.contains("Quit and abort it?") }
        tmux.send("y")
        #expect(await expectSaneTerminalAfterExit(folder) == 3)
        // The job cleaned up keeps its row in the summary; the last line says why the run exits 3.
        let screen = try #require(await tmux.waitForScreen("the summary") { $0.contains("exit 3") })
        let rows = screen.split(separator: "\n")
        // Each job's name on a line of its own, its rows below it.
        let quick = try #require(rows.firstIndex { $0.hasSuffix(" Quick job") && $0.hasPrefix("job ") }, "\(screen)")
        let slow = try #require(rows.firstIndex { $0.hasSuffix(" Slow job") && $0.hasPrefix("job ") }, "\(screen)")
        #expect(rows.indices.contains(quick + 1) && rows[quick + 1].hasPrefix("quick ") && rows[quick + 1].contains("succeeded"), "\(screen)")
        #expect(rows.indices.contains(slow + 1) && rows[slow + 1].hasPrefix("slow ") && rows[slow + 1].contains("aborted"), "\(screen)")
        #expect(screen.contains("exit 3: aborted by the operator or a signal (1 job)"), "\(screen)")
    }

    @Test func resizeRedrawsAtOnce() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let manifest = try manifest(in: folder, jobs: slowJob(folder))
        let tmux = try TmuxSession(home: folder.url, command: try runCommand(manifest, in: folder))
        defer { tmux.close() }
        await tmux.waitForScreen("the monitor") { $0.contains("step ") }
        tmux.resize(width: 60, height: 20)
        await tmux.waitForScreen("a 60×20 frame") { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 20 && lines[18].hasPrefix("└") && lines[18].hasSuffix("┘") && lines[18].count == 60
        }
        tmux.resize(width: 30, height: 10)
        await tmux.waitForScreen("the too-small message") { $0.contains("terminal too small") }
        tmux.resize(width: 100, height: 30)
        await tmux.waitForScreen("the full frame again") { $0.contains(" installtop ") && $0.contains("┌ Jobs") }
        tmux.send("q", "y")
        #expect(await expectSaneTerminalAfterExit(folder) == 3)
    }

    @Test func quitWhenDoneLeavesTheTerminalSane() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let manifest = try manifest(in: folder, jobs: quickJob)
        let tmux = try TmuxSession(home: folder.url, command: try runCommand(manifest, in: folder))
        defer { tmux.close() }
        await tmux.waitForScreen("the job done") { $0.contains("✔ Quick job") }
        tmux.send("q")
        #expect(await expectSaneTerminalAfterExit(folder) == 0)
    }

    @Test func exitWhenDoneClosesTheMonitorByItself() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let manifest = try manifest(in: folder, jobs: quickJob)
        let tmux = try TmuxSession(home: folder.url, command: try runCommand(manifest, in: folder, options: "--exit-when-done"))
        defer { tmux.close() }
        #expect(await expectSaneTerminalAfterExit(folder) == 0)
    }

    @Test func asciiWhenTheLocaleIsNotUTF8() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let manifest = try manifest(in: folder, jobs: quickJob)
        let command = try runCommand(manifest, in: folder, prefix: "LANG=C LC_ALL=C ")
        let tmux = try TmuxSession(home: folder.url, command: command)
        defer { tmux.close() }
        let screen = try #require(await tmux.waitForScreen("the ASCII frame") { $0.contains("|+ Quick job") })
        #expect(screen.contains("+ Jobs -"))
        #expect(screen.unicodeScalars.allSatisfy { $0.isASCII })
        tmux.send("q")
        #expect(await expectSaneTerminalAfterExit(folder) == 0)
    }

    @Test("one SIGTERM (a service manager's) aborts and quits without asking: exit 3, child gone, terminal sane")
    func sigtermAbortsAndQuitsWithoutAsking() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let (tmux, pgid, monitor) = try await startSlowJob(in: folder)
        defer { tmux.close() }
        kill(monitor, SIGTERM)
        #expect(await expectSaneTerminalAfterExit(folder) == 3)
        // The update's shell was reaped before exit; its `sleep` child, orphaned by the same
        // SIGTERM, may still be waiting for init to reap it.
        #expect(await EndToEndFolder.eventually { groupIsGone(pgid) }, "the aborted update's processes are gone")
    }

    @Test("a fatal signal restores the terminal, kills the update's process group and ends installtop with it",
          arguments: [(SIGSEGV, "enable=yes,interactive=no"), (SIGABRT, "enable=yes,interactive=no"), (SIGSEGV, "enable=no")])
    func fatalSignalRestoresTheTerminalAndKillsTheChildren(signal: Int32, backtrace: String) async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let (tmux, pgid, monitor) = try await startSlowJob(in: folder, prefix: "SWIFT_BACKTRACE=\(backtrace) ")
        defer { tmux.close() }
        kill(monitor, signal)
        #expect(await expectSaneTerminalAfterExit(folder) == Int(128 + signal))
        #expect(await EndToEndFolder.eventually { groupIsGone(pgid) }, "the update's processes outlived installtop")
        let screen = tmux.capture()
        #expect(!screen.contains("┌ Jobs"), "the alternate screen is gone: \(screen)")
    }

    /// The race of issue 56, item 6: once the monitor gave the terminal back it gave the signals
    /// back to the default disposition too, so a SIGINT while the aborted jobs ended, or the
    /// summary was printed, killed installtop (exit 130) with jobs possibly still running.
    @Test("SIGINTs without pause: the second quits and aborts; exit 3 with a sane terminal, never killed by one")
    func interruptFloodNeverKillsTheMonitor() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let (tmux, pgid, monitor) = try await startSlowJob(in: folder)
        defer { tmux.close() }
        // installtop is tmux's child, not this test's: its identity (id and start time) is
        // checked before each signal.
        let installtop = ProcessIdentity(pid: monitor)
        let flood = Thread {
            while installtop.send(SIGINT) { usleep(200) }
        }
        flood.start()
        #expect(await expectSaneTerminalAfterExit(folder) == 3)
        #expect(await EndToEndFolder.eventually { groupIsGone(pgid) }, "the aborted update's processes are gone")
    }

    @Test("Ctrl-C asks like q; answering y aborts and quits")
    func interruptAsks() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let (tmux, _, monitor) = try await startSlowJob(in: folder)
        defer { tmux.close() }
        kill(monitor, SIGINT)
        await tmux.waitForScreen("the quit question") { $0.contains("Quit and abort it?") }
        tmux.send("y")
        #expect(await expectSaneTerminalAfterExit(folder) == 3)
    }

    @Test func hostileOutputNeitherRetitlesNorClears() async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        try folder.write("hostile.sh", "#!/bin/sh\nprintf '\\033[2J\\033]0;HACKED\\007\\033[31mhostile line\\n'\nexit 0\n", executable: true)
        let manifest = try manifest(in: folder, jobs: """
              - name: Hostile job
                updates:
                  - id: hostile
                    title: "Hostile \\e]0;TITLE\\a update"
                    install: [\(folder.path("hostile.sh"))]

            """)
        let tmux = try TmuxSession(home: folder.url, command: try runCommand(manifest, in: folder))
        defer { tmux.close() }
        let titleBefore = tmux.paneTitle()
        let screen = try #require(await tmux.waitForScreen("the hostile line") { $0.contains("hostile line") })
        #expect(screen.contains("␛[2J␛]0;HACKED␇␛[31mhostile line"))
        #expect(screen.contains("Hostile ␛]0;TITLE␇ update"))
        #expect(screen.hasPrefix(" installtop "), "the screen was not cleared")
        #expect(screen.contains("┌ Jobs"))
        let title = tmux.paneTitle()
        #expect(title == titleBefore && !title.contains("HACKED") && !title.contains("TITLE"))
        // The line shows before the job completes (after the restart scan): a q before the
        // header says nothing runs would ask whether to quit with a job running.
        await tmux.waitForScreen("the job done") { $0.contains("0 running") }
        tmux.send("q")
        #expect(await expectSaneTerminalAfterExit(folder) == 0)
    }

    /// The pid of the `installtop` the pane's shell started.
    private func installtopProcess(of tmux: TmuxSession) -> Int32? {
        let children = try? String(contentsOfFile: "/proc/\(panePid(tmux))/task/\(panePid(tmux))/children", encoding: .utf8)
        return children?.split(separator: " ").compactMap { Int32($0) }.first { pid in
            let name = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)
            return name?.hasPrefix("installtop") == true
        }
    }

    private func panePid(_ tmux: TmuxSession) -> Int32 {
        Int32(tmux.panePid) ?? -1
    }
}
