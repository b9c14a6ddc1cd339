import Foundation
import Glibc
import Testing

/// `installtop demo`, the first thing a new user runs: from any directory, abortable.
@Suite("demo")
struct DemoTests {
    @Test("demo --plain from / aborted during the migration: exit 3, earlier results kept, no process left")
    func abortDuringMigration() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }

        let run = try InstalltopProcess(["demo", "--plain", "--no-history"], in: folder, workingDirectory: "/",
                                        environment: ["INSTALLTOP_DEMO_SPEED": "8"])
        // Wait for its first progress line: by then migrate.sh has set its TERM trap (a SIGINT
        // right at the start would end it by the signal, not by its rollback).
        try await run.send(SIGINT, whenOutputContains: "db-migrate 10%")
        let result = try await run.finish()

        #expect(result.status == 3, "stdout: \(result.stdout)\nstderr: \(result.stderr)")
        for id in ["openssl", "libc6", "curl"] {
            let row = result.summaryRow(of: id)
            #expect(row?.job == 1 && row?.result == "succeeded", "\(id): \(String(describing: row))")
        }
        #expect(result.summaryRow(of: "linux-image-6.1.0-27")?.result == "succeeded")
        #expect(result.stdout.contains("[2 1/1] linux-image-6.1.0-27 succeeded") && result.stdout.contains("(reboot required)"))
        #expect(result.summaryRow(of: "wifi-firmware")?.result == "succeededWithErrors")
        let nvidia = try #require(result.summaryRow(of: "nvidia-driver"), "stdout: \(result.stdout)")
        #expect(nvidia.result == "failed" && nvidia.hResult == "0x8024200B" && nvidia.exit == 3, "\(nvidia)")
        let migrate = try #require(result.summaryRow(of: "db-migrate"))
        #expect(migrate.result == "aborted" && migrate.hResult == "0x80242008", "\(migrate)")
        // migrate.sh traps SIGTERM, rolls back, then exits 130 on its own.
        #expect(migrate.exit == 130, "\(migrate)")
        let remove = try #require(result.summaryRow(of: "linux-image-6.1.0-25"))
        #expect(remove.result == "aborted" && remove.hResult == "0x8024000B", "\(remove)")

        #expect(run.leftovers.isEmpty, "demo processes left behind: \(run.leftovers)")
        let demoFolders = try FileManager.default.contentsOfDirectory(atPath: folder.file("tmp"))
            .filter { $0.hasPrefix("installtop-demo-") }
        #expect(demoFolders.isEmpty, "the demo's folder was not removed: \(demoFolders)")
    }

    @Test("the demo records into a history of its own, never the real one")
    func demoKeepsItsOwnHistory() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }

        let result = try await installtop(["demo", "--plain", "--exit-when-done"], in: folder,
                                          environment: ["INSTALLTOP_DEMO_SPEED": "40"], timeout: .seconds(120))
        #expect(result.status == 1, "the demo has a failure; stderr: \(result.stderr)")
        let state = folder.file("state/installtop")
        #expect(FileManager.default.fileExists(atPath: state + "/demo-history.sqlite3"))
        #expect(!FileManager.default.fileExists(atPath: state + "/history.sqlite3"), "the real history was created")
        let demoHistory = try await installtop(["history", "--json", "--history-db", state + "/demo-history.sqlite3"], in: folder)
        #expect(demoHistory.stdout.contains("\"nvidia-driver\""), "\(demoHistory.stdout)")
    }

    @Test("--print-manifest prints the shipped manifest; --export writes a copy that runs and refuses to overwrite it")
    func exportTheDemo() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }

        let printed = try await installtop(["demo", "--print-manifest"], in: folder)
        #expect(printed.status == 0)
        #expect(printed.stdout.hasPrefix("# The installtop demo") && printed.stdout.contains("id: db-migrate"), "\(printed.stdout)")

        let copy = folder.file("my-demo")
        let exported = try await installtop(["demo", "--export", copy], in: folder)
        #expect(exported.status == 0 && exported.stdout.contains("installtop run \(copy)/demo.yaml"), "\(exported.stderr)")
        #expect(try String(contentsOfFile: copy + "/demo.yaml", encoding: .utf8) == printed.stdout)
        #expect(FileManager.default.isExecutableFile(atPath: copy + "/apply.sh"))
        #expect(!FileManager.default.isExecutableFile(atPath: copy + "/lib.sh"))

        let again = try await installtop(["demo", "--export", copy], in: folder)
        #expect(again.status == 1 && again.stderr.contains("already has apply.sh"), "\(again.stderr)")

        let validated = try await installtop(["validate", copy + "/demo.yaml"], in: folder)
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")
        let ran = try await installtop(["run", copy + "/demo.yaml", "--plain", "--no-history"], in: folder,
                                       environment: ["INSTALLTOP_DEMO_SPEED": "40"], timeout: .seconds(120))
        #expect(ran.status == 1 && ran.summaryRow(of: "db-migrate")?.result == "succeeded", "\(ran.stdout)\(ran.stderr)")
    }
}
