import Foundation
import Testing

/// The documentation checks itself: every relative link in README.md, CONTRIBUTING.md and
/// Documentation/*.md reaches a file of this checkout (and a heading of it, for a `#anchor`,
/// by GitHub's rules), and every `installtop …` command the README shows as code exists in the
/// built binary's help. Each failure names the file, line and link or command.
@Suite("documentation: links and commands")
struct DocumentationLinksTests {
    /// The checkout's root: this file is Tests/EndToEndTests/Documentation/….
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// README.md, CONTRIBUTING.md and every Markdown file directly in Documentation/.
    private static func documents() throws -> [MarkdownDocument] {
        let folder = root.appendingPathComponent("Documentation").path
        let docs = try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/" + $0 }
        return try (["README.md", "CONTRIBUTING.md"] + docs).map { try MarkdownDocument($0, root: root) }
    }

    @Test("every relative link in the README and the docs reaches a file, and each #anchor a heading of it")
    func relativeLinksResolve() throws {
        let documents = try Self.documents()
        #expect(documents.count > 10, "found only \(documents.map(\.name))")
        var anchors: [String: Set<String>] = [:]
        var broken: [String] = []
        var checked = 0
        for document in documents {
            for link in document.links where !link.isExternal {
                checked += 1
                let target: URL
                if let path = link.path {
                    target = Self.root.appendingPathComponent(link.file).deletingLastPathComponent()
                        .appendingPathComponent(path).standardizedFileURL
                } else {
                    target = Self.root.appendingPathComponent(link.file)
                }
                guard FileManager.default.fileExists(atPath: target.path) else {
                    broken.append("\(link): no such file (\(target.path))")
                    continue
                }
                guard let anchor = link.anchor, !anchor.isEmpty else { continue }
                guard target.pathExtension == "md" else {
                    broken.append("\(link): an anchor into a file that is not Markdown")
                    continue
                }
                let name = String(target.path.dropFirst(Self.root.standardizedFileURL.path.count + 1))
                if anchors[name] == nil { anchors[name] = try MarkdownDocument(name, root: Self.root).anchors }
                if anchors[name]?.contains(anchor) != true {
                    broken.append("\(link): \(name) has no heading whose anchor is #\(anchor)")
                }
            }
        }
        #expect(checked > 100, "only \(checked) relative links found: is the Markdown reader right?")
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
    }

    @Test("every installtop command the README shows as code exists in the built binary's --help")
    func readmeCommandsExist() async throws {
        let readme = try MarkdownDocument("README.md", root: Self.root)
        let shown = ShownCommand.all(in: readme)
        #expect(shown.count >= 5, "the README shows only \(shown) as code")
        let folder = try TestFolder()
        defer { folder.remove() }
        var helped: [String: Set<String>] = [:]
        func subcommands(of arguments: [String]) async throws -> Set<String> {
            let key = arguments.joined(separator: " ")
            if let known = helped[key] { return known }
            let help = try await installtop(arguments + ["--help"], in: folder)
            #expect(help.status == 0, "installtop \(key) --help exited \(help.status): \(help.stderr)")
            let names = Self.subcommandNames(inHelp: help.stdout)
            helped[key] = names
            return names
        }
        let top = try await subcommands(of: [])
        #expect(top.contains("run") && top.contains("apt"), "installtop --help lists no subcommands as expected: \(top.sorted())")
        var missing: [String] = []
        for command in shown {
            guard top.contains(command.command) else {
                missing.append("\(command): `\(command.command)` is not a subcommand in `installtop --help` (\(top.sorted().joined(separator: ", ")))")
                continue
            }
            guard let next = command.next else { continue }
            let nested = try await subcommands(of: [command.command])
            if !nested.isEmpty && !nested.contains(next) {
                missing.append("\(command): `\(next)` is not a subcommand in `installtop \(command.command) --help` (\(nested.sorted().joined(separator: ", ")))")
            }
        }
        #expect(missing.isEmpty, "commands the README shows that installtop does not have:\n\(missing.joined(separator: "\n"))")
    }

    /// The names ArgumentParser lists under `SUBCOMMANDS:` (and any other `… SUBCOMMANDS:`
    /// group) of a help text: the first word of each indented line, `(default)` marks dropped.
    static func subcommandNames(inHelp help: String) -> Set<String> {
        var names: Set<String> = []
        var inSection = false
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix("SUBCOMMANDS:") {
                inSection = true
                continue
            }
            guard inSection else { continue }
            guard line.hasPrefix("  ") else {
                if !line.isEmpty { inSection = false }
                continue
            }
            let trimmed = line.drop { $0 == " " }
            guard line.count - trimmed.count <= 4, let word = trimmed.split(separator: " ").first else { continue }
            if word.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) { names.insert(String(word)) }
        }
        return names
    }
}
