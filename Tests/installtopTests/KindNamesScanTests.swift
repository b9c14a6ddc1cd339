import Foundation
import Testing

/// Nothing in the executable names the apt or dnf kind's types outside their folders but their
/// registration lines: a scan of `Sources/installtop`'s code (comments left out) for the types
/// declared at the top level of the kinds' folders (`installtop/APT`, `installtop/DNF`,
/// `InstallDrivers/APT`, `InstallDrivers/DNF`). The registration lines are listed here exactly:
/// any other file that names them fails (what it needs of a kind is a member of
/// `KindRegistration` or `PackageCommandKind`), and so does a listed one that no longer does.
@Suite("Sources/installtop names apt's and dnf's types only in their folders")
struct KindNamesScanTests {
    /// The registration lines, which are where a kind is named: its line in
    /// `EngineHost.registry` and its command's line in `InstallTop`.
    static let registrations: [String: Set<String>] = [
        "Run/EngineHost.swift": ["APTKindRegistration", "DNFKindRegistration"],
        "InstallTop.swift": ["APTCommand", "DNFCommand"],
    ]

    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// The `.swift` files under `folder`, by path relative to it.
    private func swiftFiles(under folder: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append(path) }
        }
        return files.sorted()
    }

    /// The names of the types `text` declares at the top level (not indented).
    private func declaredTypes(in text: String) -> Set<String> {
        let declaration = /^(?:(?:public|private|fileprivate|internal|package|final|indirect)\s+)*(?:struct|enum|class|protocol|actor|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)/
            .anchorsMatchLineEndings()
        return Set(text.matches(of: declaration).map { String($0.output.1) })
    }

    /// `text` without its `//` comments (doc comments too), a `//` inside a string literal kept.
    private func code(of text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var inString = false
            var previous: Character = " "
            var kept = ""
            for character in line {
                if character == "\"" { inString.toggle() }
                if !inString, character == "/", previous == "/" {
                    kept.removeLast()
                    break
                }
                kept.append(character)
                previous = character
            }
            return kept
        }.joined(separator: "\n")
    }

    private func identifiers(in text: String) -> Set<String> {
        Set(text.matches(of: /[A-Za-z_][A-Za-z0-9_]*/).map { String($0.output) })
    }

    @Test("outside APT/ and DNF/, only the registration lines name their types")
    func kindTypesStayInTheirFolders() throws {
        var kindTypes: Set<String> = []
        for folder in ["installtop/APT", "installtop/DNF", "InstallDrivers/APT", "InstallDrivers/DNF"] {
            let root = Self.sources.appendingPathComponent(folder)
            for file in swiftFiles(under: root) {
                kindTypes.formUnion(declaredTypes(in: try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)))
            }
        }
        #expect(kindTypes.isSuperset(of: ["APTJobKind", "DNFJobKind", "APTSession", "DNFSession", "APTDriver", "DNFDriver"]),
                "the scan finds the kinds' declarations")
        let executable = Self.sources.appendingPathComponent("installtop")
        var named: [String: Set<String>] = [:]
        for file in swiftFiles(under: executable) where !file.hasPrefix("APT/") && !file.hasPrefix("DNF/") {
            let text = try String(contentsOf: executable.appendingPathComponent(file), encoding: .utf8)
            let names = identifiers(in: code(of: text)).intersection(kindTypes)
            if !names.isEmpty { named[file] = names }
        }
        for file in Set(named.keys).union(Self.registrations.keys).sorted() {
            #expect(named[file, default: []] == Self.registrations[file, default: []], "\(file)")
        }
    }
}
