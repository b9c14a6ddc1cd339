import Foundation
import Testing

/// What an installed installtop documents beside `--help`: `man installtop` (written by hand in
/// Documentation/installtop.1, installed by the README's Build from source block) and the shell
/// completions.
@Suite("man page and completions")
struct ManualAndCompletionTests {
    /// Documentation/installtop.1 in this checkout.
    private static let manualPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Documentation/installtop.1").path

    @Test("the bash completion offers manifest files, theme names and apt's package names")
    func bashCompletion() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let script = try await installtop(["--generate-completion-script", "bash"], in: folder)
        #expect(script.status == 0, "\(script.stderr)")
        #expect(script.stdout.contains("apt-cache --no-generate pkgnames"), "no package names for apt install")
        for command in ["run", "validate", "submit"] {
            let function = try #require(Self.function(named: "_installtop_\(command)", in: script.stdout), "no function for \(command)")
            #expect(function.contains("yaml") && function.contains("yml"), "\(command) offers no manifests: \(function)")
        }
        let run = try #require(Self.function(named: "_installtop_run", in: script.stdout))
        #expect(run.contains("---completion") && run.contains("--theme"), "--theme offers no names: \(run)")

        let themes = try await installtop(["---completion", "run", "--", "--theme", "3", "1", "installtop", "run", "--theme", "s"], in: folder)
        #expect(themes.stdout.split(separator: "\n").contains("solarized-dark"), "stdout: \(themes.stdout) stderr: \(themes.stderr)")
    }

    @Test("the bash completion of `apt remove` offers the installed packages dpkg's status names, each once, not ones only configured or not installed")
    func bashCompletionOfInstalledPackages() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let script = try await installtop(["--generate-completion-script", "bash"], in: folder)
        #expect(script.status == 0, "\(script.stderr)")
        try folder.write("completion.bash", script.stdout)
        // A dpkg database of its own (dpkg-query reads DPKG_ADMINDIR's status).
        try FileManager.default.createDirectory(atPath: folder.file("dpkg/info"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("dpkg/updates"), withIntermediateDirectories: true)
        // libcord1 is installed for two architectures (Multi-Arch: same), offered once.
        let entries = [("cowsay", "all", "install ok installed"), ("cowsay-off", "all", "deinstall ok config-files"),
                       ("libcord1", "amd64", "install ok installed"), ("libcord1", "i386", "install ok installed"),
                       ("corkscrew", "amd64", "install ok not-installed"), ("fortune-mod", "amd64", "install ok installed")]
        try folder.write("dpkg/status", entries.map { name, architecture, status in
            """
            Package: \(name)
            Status: \(status)
            Architecture: \(architecture)\(architecture == "all" ? "" : "\nMulti-Arch: same")
            Maintainer: Test <test@example.org>
            Version: 1.0
            Description: \(name)

            """
        }.joined(separator: "\n"))
        try folder.write("complete.sh", """
            source ./completion.bash
            COMP_WORDS=(installtop apt remove "$1"); COMP_CWORD=3
            COMP_LINE="installtop apt remove $1"; COMP_POINT=${#COMP_LINE}
            _installtop installtop "$1" remove
            printf '%s\\n' "${COMPREPLY[@]}"
            """)
        for (typed, expected) in [("co", ["cowsay"]), ("", ["cowsay", "fortune-mod", "libcord1"])] {
            let offered = try await InstalltopProcess(["complete.sh", typed], in: folder, executable: "/bin/bash", workingDirectory: folder.path,
                                                      environment: ["DPKG_ADMINDIR": folder.file("dpkg")]).finish()
            #expect(offered.status == 0, "\(offered.stderr)")
            #expect(offered.stdoutLines.sorted() == expected, "'\(typed)': stdout: \(offered.stdout) stderr: \(offered.stderr)")
        }
    }

    @Test("man installtop documents commands, keys, manifest, progress channel, exit status, environment and files; SYNOPSIS shows every command and SEE ALSO names each page once")
    func manualPage() async throws {
        let text = try String(contentsOfFile: Self.manualPath, encoding: .utf8)
        let sections = text.split(separator: "\n").filter { $0.hasPrefix(".SH ") }.map { String($0.dropFirst(4)) }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "THE MONITOR", "THE MANIFEST", "THE PROGRESS CHANNEL",
                        "EXIT STATUS", "ENVIRONMENT", "FILES", "SEE ALSO"] {
            #expect(sections.contains(section), "no \(section) section: \(sections)")
        }
        #expect(!text.contains("BSD General Commands Manual"))
        #expect(text.contains("installtop.run"), ".ci/check-install looks for the per-command pages' names")
        for file in ["history.sqlite3", "themes", "installtop.sock"] { #expect(text.contains(file), "FILES lacks \(file)") }
        // Every command `installtop --help` lists is in it.
        let folder = try TestFolder()
        defer { folder.remove() }
        let help = try await installtop(["--help"], in: folder)
        let commands = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).drop { !$0.hasPrefix("SUBCOMMANDS") }.dropFirst()
            .prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && $0.dropFirst(2).first?.isLetter == true }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(commands.count >= 12, "\(help.stdout)")
        // SYNOPSIS shows each command, SEE ALSO names each page once.
        let lines = text.split(separator: "\n").map { $0.replacingOccurrences(of: "\\-", with: "-") }
        let synopsis = lines.drop { $0 != ".SH SYNOPSIS" }.dropFirst().prefix { !$0.hasPrefix(".SH ") }
        let synopsisWords = Set(synopsis.flatMap { $0.split { !$0.isLetter && $0 != "-" }.map(String.init) })
        let seeAlso = lines.drop { $0 != ".SH SEE ALSO" }.dropFirst().prefix { !$0.hasPrefix(".SH ") }
            .compactMap { $0.hasPrefix(".BR installtop.") ? $0.split(separator: " ")[1] : nil }
        #expect(seeAlso.count == Set(seeAlso).count, "SEE ALSO names a page twice: \(seeAlso)")
        for command in commands where command != "help" {
            #expect(lines.contains { $0.contains("installtop.\(command)") }, "the page does not point at installtop.\(command) (of \(commands))")
            #expect(seeAlso.contains("installtop.\(command)"), "SEE ALSO lacks installtop.\(command): \(seeAlso)")
            #expect(synopsisWords.contains(command), "SYNOPSIS lacks \(command): \(Array(synopsis))")
        }
        let readme = try String(contentsOfFile: Self.manualPath.replacingOccurrences(of: "Documentation/installtop.1", with: "README.md"),
                                encoding: .utf8)
        #expect(readme.contains("install -D -m 644 Documentation/installtop.1"), "the Install block does not install the page")
    }

    @Test("each command's page is made from its help: every option, its exit statuses, SEE ALSO installtop(1); man renders it without a warning")
    func perCommandPages() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let generated = try await installtop(["generate-manual", folder.file("man1")], in: folder)
        #expect(generated.status == 0, "\(generated.stderr)")
        let expected: [(command: [String], statuses: [Int])] = [
            (["run"], [0, 1, 2, 3, 4, 5]), (["demo"], [0, 1, 2, 3, 4, 5]), (["validate"], [0, 2]), (["history"], [0, 1, 2]),
            (["replay"], [0, 1, 2]), (["themes"], [0, 2]), (["serve"], [0, 1, 2]), (["submit"], [0, 1, 2]), (["attach"], [0, 1, 2]), (["status"], [0, 1, 2]),
            (["abort"], [0, 1, 2]), (["cleanup"], [0, 1, 2]), (["confirm"], [0, 1, 2]), (["bridge"], [0, 1, 2]),
            (["enroll"], [0, 1, 2]), (["hosts"], [2]), (["hosts", "check"], [0, 1, 2]),
            (["apt"], [0, 1, 2, 3, 4, 5]), (["apt", "install"], [0, 1, 2, 3, 4, 5, 7]),
            (["apt", "upgrade"], [0, 1, 2, 3, 4, 5, 7]), (["apt", "full-upgrade"], [0, 1, 2, 3, 4, 5, 7]), (["apt", "remove"], [0, 1, 2, 3, 4, 5, 7]),
            (["apt", "undo"], [0, 1, 2, 3, 4, 5]), (["apt", "repair"], [0, 1, 2, 3, 4, 5]), (["apt", "revert"], [0, 1, 2, 7]),
            (["dnf"], [0, 1, 2, 3, 4]), (["dnf", "install"], [0, 1, 2, 3, 4, 7]), (["dnf", "upgrade"], [0, 1, 2, 3, 4, 7]),
            (["dnf", "remove"], [0, 1, 2, 3, 4, 7]), (["dnf", "undo"], [0, 1, 2, 3, 4]), (["dnf", "revert"], [0, 1, 2, 7]),
            (["ansible"], [0, 1, 2, 3, 4]), (["drive"], [0, 1, 2, 3, 4]), (["hooks"], [2]), (["hooks", "install"], [0, 1, 2]),
            (["hooks", "status"], [0, 1, 2]), (["hooks", "remove"], [0, 1, 2]), (["watch"], [0, 1, 2]), (["pending"], [0, 1, 2]), (["patch"], [0, 1, 2, 8, 9]), (["restarts"], [0, 1, 2, 6]),
            (["restart-services"], [0, 1, 2, 3]),
        ]
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.file("man1")).sorted()
        #expect(files == expected.map { (["installtop"] + $0.command).joined(separator: ".") + ".1" }.sorted(), "\(files)")
        for (command, statuses) in expected {
            let name = (["installtop"] + command).joined(separator: ".")
            let page = try String(contentsOfFile: folder.file("man1/\(name).1"), encoding: .utf8)
            let lines = page.split(separator: "\n").map(String.init)
            let exitSection = lines.drop { $0 != ".SH EXIT STATUS" }.dropFirst().prefix { !$0.hasPrefix(".SH ") }
            #expect(exitSection.filter { $0.hasPrefix(".B ") } == statuses.map { ".B \($0)" }, "\(name): \(Array(exitSection))")
            #expect(lines.contains { $0.hasPrefix(".BR installtop (1)") } && !page.contains("General Commands Manual"), "\(name): \(page)")
            // Every option the help lists (its lines start with "  -") is on the page.
            let help = try await installtop(command + ["--help"], in: folder)
            let options = help.stdout.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { $0.split(separator: " ") }.map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ",\n")) }
                .filter { $0.hasPrefix("--") && $0.count > 2 && $0.allSatisfy { $0.isLetter || $0 == "-" } }
            #expect(options.contains("--help"), "\(help.stdout)")
            for option in Set(options) {
                #expect(page.contains(".B " + option.replacingOccurrences(of: "-", with: "\\-")) || page.contains(", " + option.replacingOccurrences(of: "-", with: "\\-")),
                        "\(name) lacks \(option)")
            }
            let rendered = try await renderedWarnings(of: folder.file("man1/\(name).1"), in: folder)
            #expect(rendered.isEmpty, "\(name): \(rendered)")
        }
    }

    /// What groff warns about the page at `path` (empty when groff is not installed).
    private func renderedWarnings(of path: String, in folder: TestFolder) async throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else { return "" }
        let groff = Process()
        groff.executableURL = URL(fileURLWithPath: "/usr/bin/groff")
        groff.arguments = ["-man", "-Tutf8", "-ww", "-z", path]
        let errors = Pipe()
        groff.standardError = errors
        try groff.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        groff.waitUntilExit()
        return text
    }

    /// The text of the bash function `name` in `script`, up to the next function.
    private static func function(named name: String, in script: String) -> String? {
        guard let start = script.range(of: "\n\(name)() {") else { return nil }
        let rest = script[start.upperBound...]
        let end = rest.range(of: "\n}\n")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }
}
