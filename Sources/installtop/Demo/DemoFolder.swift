#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextBasics
import Glibc

/// The demo's manifest and scripts (`Examples/demo/`, embedded as `DemoFiles`) written out to a
/// folder: a private temporary one for `installtop demo`, or one the user names for
/// `installtop demo --export`.
struct DemoFolder {
    let path: String

    /// The name of the demo's manifest among `DemoFiles.files`.
    static let manifestName = "demo.yaml"

    var manifestPath: String { path + "/" + Self.manifestName }

    /// The manifest's text, as shipped.
    static var manifestText: String {
        DemoFiles.files.first { $0.name == manifestName }?.text ?? ""
    }

    /// Writes every file into a new private folder under the temporary directory (`$TMPDIR`),
    /// so the demo runs from any working directory; `remove()` deletes it.
    static func createTemporary() throws -> DemoFolder {
        let base = FileManager.default.temporaryDirectory.path
        let path = base + "/installtop-demo-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let folder = DemoFolder(path: path)
        try folder.writeFiles()
        return folder
    }

    /// Writes every file into `path`, creating it if needed. Refuses (before writing anything)
    /// a path that is not a folder or a folder that already holds one of the demo's files, so
    /// an export never overwrites the user's work.
    static func export(to path: String) throws(DemoExportError) -> DemoFolder {
        if let kind = FileKind.of(path) {
            guard kind == .folder else { throw .notAFolder(path) }
            let clashes = DemoFiles.files.map(\.name).filter { FileManager.default.fileExists(atPath: path + "/" + $0) }
            guard clashes.isEmpty else { throw .wouldOverwrite(path: path, files: clashes) }
        }
        let folder = DemoFolder(path: path)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try folder.writeFiles()
        } catch {
            throw .cannotWrite(path: path, reason: ErrorText.reason(error))
        }
        return folder
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Each file with its exact text; scripts executable, the rest readable.
    private func writeFiles() throws {
        for file in DemoFiles.files {
            let filePath = path + "/" + file.name
            try Data(file.text.utf8).write(to: URL(fileURLWithPath: filePath))
            try FileManager.default.setAttributes([.posixPermissions: file.isExecutable ? 0o755 : 0o644], ofItemAtPath: filePath)
        }
    }
}
