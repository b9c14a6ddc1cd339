import Foundation
import Glibc
import Testing

/// `installtop run … | head`: a closed stdout is treated like SIGHUP (graceful abort, exit when
/// every child is gone), never as a reason to die of SIGPIPE with the installs running on.
@Suite("closed stdout")
struct ClosedStdoutTests {
    @Test("--plain | head -2 and --json | head -4: exit 3, the update's process gone, history says aborted",
          arguments: [["--plain"], ["--json"]])
    func readerGoesAway(mode: [String]) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.script("slow.sh", """
            echo $$ > script.pid.tmp && mv script.pid.tmp script.pid
            i=0
            while [ $i -lt 600 ]; do
                echo "progress $((i / 6)) step $i" >&3
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
            #expect(await eventually { processIsGone(script) }, "the update's script was left running")
        }
        #expect(run.leftovers.isEmpty, "processes left behind: \(run.leftovers)")
        let history = try await installtop(["history", "--json", "--history-db", folder.file("history.db")], in: folder)
        #expect(history.stdout.contains("\"result\":\"aborted\""), "\(history.stdout)")
        #expect(!history.stdout.contains("interrupted"), "\(history.stdout)")
    }
}
