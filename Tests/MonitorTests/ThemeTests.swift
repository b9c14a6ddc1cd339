import Foundation
import TerminalUI
import Testing

@testable import Monitor

@Suite("Themes")
struct ThemeTests {
    private static let themesFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Themes")

    @Test func builtInThemesLoadWithDefaultFirst() {
        let catalog = ThemeCatalog(userDirectory: nil)
        #expect(catalog.problems.isEmpty, "\(catalog.problems)")
        #expect(catalog.themes.map(\.id) == ["default", "high-contrast", "mono", "solarized-dark"])
        #expect(Themes.default[.failed] == Style(foreground: .red, bold: true))
        #expect(Themes.named("solarized-dark")[.text].background == .rgb(0x00, 0x2B, 0x36))
    }

    @Test func embeddedTextsEqualTheFilesInThemes() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.themesFolder.path).filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(EmbeddedThemes.files.map { $0.name + ".yaml" } == files)
        for file in EmbeddedThemes.files {
            let text = try String(contentsOf: Self.themesFolder.appendingPathComponent(file.name + ".yaml"), encoding: .utf8)
            #expect(file.text == text, "Themes/\(file.name).yaml")
        }
    }

    @Test func everyBuiltInThemeSetsEveryRole() throws {
        for theme in Themes.catalog.themes {
            guard case .builtIn(let file) = theme.source else { continue }
            let text = try String(contentsOf: Self.themesFolder.appendingPathComponent(file), encoding: .utf8)
            for role in ThemeRole.allCases {
                #expect(text.contains("\n  \(role.key):"), "\(file) sets \(role.key)")
            }
        }
    }

    @Test func monoHasNoColour() {
        for role in ThemeRole.allCases {
            #expect(Themes.mono[role].foreground == .default && Themes.mono[role].background == .default)
        }
        #expect(Themes.mono[.selection].reverse)
    }

    @Test(arguments: [
        ("name: X\nstyles:\n  text: default\n  failure: red\n", 4, 3, "styles.failure", "unknown role"),
        ("name: X\nstyles:\n  failed: {fg: reddish}\n", 3, 16, "styles.failed.fg", "got `reddish`"),
        ("name: X\nstyles:\n  failed: {bold: maybe}\n", 3, 18, "styles.failed.bold", "expected true or false"),
        ("name: X\nstyles:\n  failed: {blink: true}\n", 3, 12, "styles.failed.blink", "unknown key"),
        ("name: X\ncolours: {}\n", 2, 1, "colours", "unknown key"),
        ("name: X\n", 1, 1, "styles", "missing"),
        ("name: X\nstyles: [red]\n", 2, 9, "styles", "expected a mapping"),
        ("styles:\n  text: {fg: red\n", 3, 1, "", "invalid YAML"),
        ("- just\n- a list\n", 1, 1, "", "expected a mapping"),
    ])
    func errorsNameLineColumnAndKey(text: String, line: Int, column: Int, key: String, message: String) {
        do {
            _ = try ThemeLoader.parse(text, file: "bad.yaml", id: "bad", source: .file("bad.yaml"))
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.file == "bad.yaml")
            #expect(error.line == line, "\(error)")
            #expect(error.column == column, "\(error)")
            #expect(error.key == key, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.description.hasPrefix("bad.yaml:\(line):\(column): "))
        }
    }

    @Test func rolesLeftOutFallBackToText() throws {
        let theme = try ThemeLoader.parse("name: Tiny\nstyles:\n  text: {fg: '#102030', bg: 17}\n  failed: red\n",
            file: "tiny.yaml", id: "tiny", source: .file("tiny.yaml"))
        #expect(theme.name == "Tiny")
        #expect(theme[.border] == Style(foreground: .rgb(0x10, 0x20, 0x30), background: .indexed(17)))
        #expect(theme[.failed] == Style(foreground: .red))
    }

    @Test func userThemesLoadAndBrokenOnesAreReported() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("themes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "name: Mine\nstyles:\n  text: green\n".write(to: folder.appendingPathComponent("mine.yaml"), atomically: true, encoding: .utf8)
        try "name: Broken\nstyles:\n  text: greenish\n".write(to: folder.appendingPathComponent("broken.yaml"), atomically: true, encoding: .utf8)
        try "not a theme".write(to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        var catalog = ThemeCatalog(userDirectory: folder.path)
        #expect(catalog.themes.map(\.id) == ["default", "high-contrast", "mono", "solarized-dark", "mine"])
        #expect(catalog.problems.count == 1)
        #expect(catalog.problems.first?.description.contains("broken.yaml:3:9: styles.text:") == true)
        #expect(try catalog.resolve("MINE") == 4)
        #expect(try catalog.resolve("Solarized dark") == 3)
        let path = folder.appendingPathComponent("mine.yaml").path
        #expect(try catalog.resolve(path) == 5)
        #expect(catalog.themes[5].source == .file(path))
    }

    @Test func unknownThemeNamesTheAvailableOnes() {
        var catalog = ThemeCatalog(userDirectory: "/nonexistent/\(UUID().uuidString)")
        #expect(catalog.problems.isEmpty)
        do {
            _ = try catalog.resolve("neon")
            Issue.record("resolved an unknown theme")
        } catch {
            #expect(error.description.contains("no theme named `neon`; available: default, high-contrast, mono, solarized-dark"))
            #expect(error.description.hasPrefix("--theme: no theme named"), "a name has no file position: \(error.description)")
        }
        #expect(throws: ThemeError.self) { _ = try catalog.resolve("/nonexistent/theme.yaml") }
    }

    @Test func userDirectoryFollowsXDG() {
        #expect(ThemeCatalog.userDirectory(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]) == "/x/installtop/themes")
        #expect(ThemeCatalog.userDirectory(environment: ["HOME": "/h"]) == "/h/.config/installtop/themes")
        #expect(ThemeCatalog.userDirectory(environment: [:]) == nil)
    }
}
