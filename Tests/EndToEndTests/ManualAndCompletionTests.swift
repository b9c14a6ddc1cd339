import Foundation
import Testing

/// What an installed installtop documents beside `--help`: `man installtop` (written by hand in
/// Documentation/installtop.1, installed by the README's Install block) and the shell
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

    @Test("man installtop documents commands, keys, manifest, progress channel, exit status, environment and files")
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
        for command in commands where command != "help" {
            #expect(text.contains("installtop.\(command)"), "the page does not point at installtop.\(command) (of \(commands))")
        }
        let readme = try String(contentsOfFile: Self.manualPath.replacingOccurrences(of: "Documentation/installtop.1", with: "README.md"),
                                encoding: .utf8)
        #expect(readme.contains("install -D -m 644 Documentation/installtop.1"), "the Install block does not install the page")
    }

    /// The text of the bash function `name` in `script`, up to the next function.
    private static func function(named name: String, in script: String) -> String? {
        guard let start = script.range(of: "\n\(name)() {") else { return nil }
        let rest = script[start.upperBound...]
        let end = rest.range(of: "\n}\n")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }
}
