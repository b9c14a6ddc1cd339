import Foundation
import Glibc
import Testing
import TestProcessSupport

/// `installtop run … | head`: a closed stdout is treated like SIGHUP (graceful abort, exit when
/// every child is gone), never as a reason to die of SIGPIPE with the installs running on.
@Suite("closed stdout")
struct ClosedStdoutTests {
    @Test("--plain | head -2 and --json | head -4: exit 3, the update's process gone, history says aborted",
          arguments: [["--plain"], ["--json"]])
    func readerGoesAway(mode: [String]) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try Self.writeSlowJob(in: folder, startingWith: "echo $$ > script.pid.tmp && mv script.pid.tmp script.pid")
        let binary = try InstalltopBinary.path()
        let lines = mode == ["--plain"] ? 2 : 4
        // pipefail: the pipeline's status is installtop's, not head's.
        let run = try InstalltopProcess(
            ["-c", "set -o pipefail; '\(binary)' run slow.yaml \(mode[0]) --history-db history.db | head -\(lines)"],
            in: folder, executable: "/bin/bash")
        let result = try await run.finish()

        #expect(result.status == 3, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        #expect(result.stderr.contains("stdout was closed: aborting every job"), "\(result.stderr)")
        if let script = pid_t((try? String(contentsOfFile: folder.file("script.pid"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "") {
            // Read after the run, the id may name another process by now: only one that carries
            // this run's marker is the script.
            #expect(await eventually { !liveProcesses(withEnvironmentMarker: run.marker).contains(script) },
                    "the update's script was left running")
        }
        #expect(run.leftovers.isEmpty, "processes left behind: \(run.leftovers)")
        let history = try await installtop(["history", "--json", "--history-db", folder.file("history.db")], in: folder)
        #expect(history.stdout.contains("\"result\":\"aborted\""), "\(history.stdout)")
        #expect(!history.stdout.contains("interrupted"), "\(history.stdout)")
    }

    /// `head -2`, but only once the update's script has written background.pid (polled, 60 s at
    /// most): installtop prints its first lines before the script runs, and a `head` that closes
    /// the pipe at once lets the abort kill the script before it started the `sleep` this test is
    /// about (seen in a CI run under load).
    private static let headOnceStarted =
        "{ n=0; while [ ! -e background.pid ] && [ $n -lt 1200 ]; do sleep 0.05; n=$((n + 1)); done; head -2; }"

    /// slow.yaml: one update, slow.sh, which runs `start`, then reports progress on fd 3 every
    /// 0.1 s for half an hour (the tests stop it long before).
    private static func writeSlowJob(in folder: TestFolder, startingWith start: String) throws {
        try folder.script("slow.sh", start + """

            i=0
            while [ $i -lt 18000 ]; do
                echo "progress $((i / 180)) step $i" >&3
                i=$((i + 1))
                sleep 0.1
            done
            """)
        try folder.write("slow.yaml", """
            jobs:
              - name: Slow
                updates:
                  - {id: slow, install: [./slow.sh]}
            """)
    }

    /// Runs `pipeline` with bash under a python3 that made itself the child subreaper and never
    /// reaps but bash: whatever installtop's children leave (a killed shell's `sleep`) and
    /// installtop did not reap becomes the python's child, and it says which after bash ends.
    private static let subreaperHarness = """
        import ctypes, json, os, subprocess, sys
        ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
        status = subprocess.Popen(["/bin/bash", "-c", sys.argv[1]]).wait()
        left = []
        for name in os.listdir("/proc"):
            try:
                text = open("/proc/%s/stat" % name).read()
            except (OSError, ValueError):
                continue
            fields = text[text.rindex(")") + 2:].split()
            if name.isdigit() and int(fields[1]) == os.getpid():
                left.append("%s %s (%s)" % (name, fields[0], text[text.index("(") + 1:text.rindex(")")]))
        print(json.dumps({"status": status, "left": left}), flush=True)
        for entry in left:
            pid = int(entry.split()[0])
            try:
                os.kill(pid, 9)
                os.waitpid(pid, 0)
            except OSError:
                pass
        """

    @Test("run --plain | head -2: installtop reaps every process its update left (the killed shell's sleeps) before it exits; none is left a zombie for init")
    func leftProcessesAreReaped() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try Self.writeSlowJob(in: folder, startingWith: """
            sleep 300 &
            echo $! > background.pid.tmp && mv background.pid.tmp background.pid
            """)
        let binary = try InstalltopBinary.path()
        let run = try InstalltopProcess(
            ["-c", Self.subreaperHarness, "set -o pipefail; '\(binary)' run slow.yaml --plain --no-history | \(Self.headOnceStarted)"],
            in: folder, executable: "/usr/bin/python3")
        let result = try await run.finish()
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data((result.stdout.split(separator: "\n").last ?? "").utf8)) as? [String: Any],
            "\(result.stdout)\(result.stderr)")
        #expect(report["status"] as? Int == 3, "installtop's status through the pipe: \(report)\n\(result.stderr)")
        #expect(report["left"] as? [String] == [], "processes installtop's update left and installtop did not reap: \(report)")
        let background = try #require(pid_t((try? String(contentsOfFile: folder.file("background.pid"), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))
        #expect(kill(background, 0) == -1 && errno == ESRCH, "the update's background sleep is gone, not a zombie")
        #expect(run.leftovers.isEmpty, "processes left behind: \(run.leftovers)")
    }
}
