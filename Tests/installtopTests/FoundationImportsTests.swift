import Foundation
import Testing

/// The shipped code links no part of Foundation that carries ICU's data (34 MB of the static
/// binary): every file imports FoundationEssentials, and `Foundation` only where
/// FoundationEssentials does not exist (another platform). With MemberImportVisibility (see
/// Package.swift) a file then gets nothing of Foundation's proper, not even through another
/// file's import. Documentation/ARCHITECTURE.md "What the binary links".
@Suite("The shipped sources import FoundationEssentials, never Foundation on Linux")
struct FoundationImportsTests {
    /// Targets that are not part of the installed binaries.
    static let notShipped: Set<String> = ["installtop-bench", "embed-files", "InstallEngineTesting"]

    @Test("no `import Foundation` outside `#if canImport(FoundationEssentials) … #else`")
    func onlyEssentials() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources").path
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources).filter { !Self.notShipped.contains($0) }
        var offenders: [String] = []
        var files = 0
        for target in targets {
            guard let walker = FileManager.default.enumerator(atPath: sources + "/" + target) else { continue }
            for case let file as String in walker where file.hasSuffix(".swift") {
                files += 1
                let lines = try String(contentsOfFile: "\(sources)/\(target)/\(file)", encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                for (index, line) in lines.enumerated() where line == "import Foundation" || line.hasPrefix("import Foundation ")
                    || line.hasPrefix("@preconcurrency import Foundation") || line == "import FoundationInternationalization" {
                    let guarded = index >= 3 && lines[index - 1] == "#else" && lines[index - 3] == "#if canImport(FoundationEssentials)"
                    if !guarded { offenders.append("\(target)/\(file):\(index + 1)") }
                }
            }
        }
        #expect(files > 500, "the sources were not found at \(sources)")
        #expect(offenders.isEmpty, "import FoundationEssentials instead: \(offenders.joined(separator: ", "))")
    }
}
