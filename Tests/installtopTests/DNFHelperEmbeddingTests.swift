import Foundation
import InstallDrivers
import Testing
@testable import installtop

/// The dnf helper as the binary ships it: `DNFHelperFiles` holds every file of
/// `Sources/InstallDrivers/DNF/Helper/` by its path there (the package's modules in their
/// folder), and the folder written from them runs: the script finds its package beside it.
@Suite("dnf: the helper embedded with its package")
struct DNFHelperEmbeddingTests {
    private static let helper = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Sources/InstallDrivers/DNF/Helper")

    @Test("the embedded files are the helper's folder, subfolders included, with no __pycache__")
    func embedded() throws {
        var onDisk: [String: String] = [:]
        let base = Self.helper.path + "/"
        let enumerator = try #require(FileManager.default.enumerator(atPath: Self.helper.path))
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name == "__pycache__" || name.hasPrefix(".") {
                enumerator.skipDescendants()
                continue
            }
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + relative, isDirectory: &isFolder), !isFolder.boolValue {
                onDisk[relative] = try String(contentsOfFile: base + relative, encoding: .utf8)
            }
        }
        let embedded = Dictionary(uniqueKeysWithValues: DNFHelperFiles.files.map { ($0.name, $0.text) })
        #expect(embedded.keys.sorted() == onDisk.keys.sorted())
        #expect(embedded.keys.contains("installtop-dnf.py"))
        #expect(embedded.keys.contains("installtop_dnf/__init__.py"))
        for (name, text) in onDisk {
            #expect(embedded[name] == text, "\(name) differs from its embedded text")
        }
    }

    @Test("written out, the script imports its modules from its folder and answers in the protocol",
          .enabled(if: getuid() == 0, "the helper runs as root"))
    func writtenOutRuns() throws {
        let folder = DNFKindRegistration.helperFolder()
        defer { folder.remove() }
        let helper = try folder.helper()
        let script = URL(fileURLWithPath: helper.script)
        let modules = script.deletingLastPathComponent().appending(path: "installtop_dnf")
        let attributes = try FileManager.default.attributesOfItem(atPath: modules.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        // An empty private installroot: dnf reads no repository there, and the one package asked
        // for is unknown. Every module is imported by then (main imports them all).
        let root = FileManager.default.temporaryDirectory.appending(path: "installtop-dnf-embedding-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: helper.python)
        process.arguments = [helper.script, "plan", "--installroot", root.path, "install", "lab-nothing"]
        // As installtop runs it: its folder is its TMPDIR (the private HOME goes there).
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": script.deletingLastPathComponent().path]) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: data, as: UTF8.self) == #"{"event":"error","kind":"unknown","message":"No match for argument: lab-nothing"}"# + "\n")
        #expect(process.terminationStatus == 2)
    }
}
