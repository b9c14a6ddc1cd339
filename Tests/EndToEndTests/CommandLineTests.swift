import Foundation
import Testing

/// What a newcomer types first: --version, a mistyped command, a mistyped theme.
@Suite("command line")
struct CommandLineTests {
    @Test func version() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let result = try await installtop(["--version"], in: folder)
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(result.stdout)")
    }

    @Test("a mistyped command: exit 2, the command it probably meant, the list of commands")
    func mistypedCommand() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        for (typed, meant) in [("rn", "run"), ("valdate", "validate"), ("attatch", "attach")] {
            let result = try await installtop([typed, "m.yaml"], in: folder)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("installtop: unknown command '\(typed)'; did you mean '\(meant)'?\n"), "\(result.stderr)")
            #expect(result.stderr.contains("The commands: run, demo, validate"), "\(result.stderr)")
        }
        let nothingClose = try await installtop(["frobnicate"], in: folder)
        #expect(nothingClose.status == 2 && nothingClose.stderr.hasPrefix("installtop: unknown command 'frobnicate'\n"), "\(nothingClose.stderr)")
    }

    @Test("an apt verb as a command points at `installtop apt`, a typo of one at the `installtop apt` command it meant; a typo in apt's commands gets a did-you-mean")
    func aptHints() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        for verb in ["install", "remove", "upgrade"] {
            let result = try await installtop([verb, "cowsay"], in: folder)
            #expect(result.status == 2)
            #expect(result.stderr == "installtop has no command `\(verb)`; to \(verb) packages with apt: installtop apt \(verb) cowsay\n",
                    "\(result.stderr)")
        }
        for (typed, meant) in [("instal", "install"), ("remvoe", "remove"), ("upgarde", "upgrade")] {
            let result = try await installtop([typed, "cowsay", "--yes"], in: folder)
            #expect(result.status == 2)
            #expect(result.stderr.hasPrefix("installtop: unknown command '\(typed)'; did you mean 'installtop apt \(meant) cowsay --yes'?\n"),
                    "\(result.stderr)")
            #expect(result.stderr.contains("The commands: run, demo, validate"), "\(result.stderr)")
        }
        let typo = try await installtop(["apt", "instal", "cowsay"], in: folder)
        #expect(typo.status == 2)
        #expect(typo.stderr.hasPrefix("installtop: unknown command 'instal'; did you mean 'install'?\n"), "\(typo.stderr)")
        #expect(typo.stderr.contains("The commands: install, upgrade, full-upgrade, remove, undo, repair, revert, help (installtop apt --help says more)."),
                "\(typo.stderr)")
    }

    @Test("a usage error ends with the usage of the command that failed, found while parsing or when it runs; exit 2",
          arguments: [
              (["apt", "install"], "Missing expected argument", "installtop apt install"),
              (["history", "--limit", "x"], "The value 'x' is invalid for '--limit <limit>'", "installtop history"),
              (["attach", "--hosts", "missing.ini"], "cannot read the inventory missing.ini", "installtop attach"),
              (["status", "--hosts", "missing.ini"], "cannot read the inventory missing.ini", "installtop status"),
              (["abort", "--host", "web1", "--host", "web2", "3"], "this acts on one host's job", "installtop abort"),
          ])
    func usageOfTheFailingCommand(arguments: [String], error: String, command: String) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let result = try await installtop(arguments, in: folder)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: \(error)"), "\(result.stderr)")
        #expect(result.stderr.contains("\nUsage: \(command) "), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("\n  See '\(command) --help' for more information.\n"), "\(result.stderr)")
        #expect(!result.stderr.contains("<subcommand>"), "\(result.stderr)")
    }

    @Test("--theme with an unknown name is a usage error in every output mode, before anything runs, with no file position",
          arguments: [["--plain"], ["--json"]])
    func unknownTheme(mode: [String]) async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try folder.write("m.yaml", "jobs:\n  - name: J\n    updates:\n      - {id: u, install: 'touch ran'}\n")
        let result = try await installtop(["run", "m.yaml", "--no-history", "--theme", "nosuch"] + mode, in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--theme: no theme named `nosuch`; available: default"), "\(result.stderr)")
        #expect(!result.stderr.contains("nosuch:1:1"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("ran")), "nothing ran")
    }
}
