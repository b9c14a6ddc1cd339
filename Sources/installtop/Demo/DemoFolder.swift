import Foundation

/// The demo's manifest and scripts, written to a fresh private folder so the demo runs from
/// any working directory and leaves nothing behind.
struct DemoFolder {
    let path: String

    var manifestPath: String { path + "/demo.yaml" }

    /// Writes every file of `DemoFiles` into a new folder under the temporary directory
    /// (`$TMPDIR`), scripts executable.
    static func create() throws -> DemoFolder {
        let base = FileManager.default.temporaryDirectory.path
        let path = base + "/installtop-demo-\(getpid())-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        for file in DemoFiles.all {
            let filePath = path + "/" + file.name
            try Data(file.contents.utf8).write(to: URL(fileURLWithPath: filePath))
            try FileManager.default.setAttributes([.posixPermissions: file.isExecutable ? 0o755 : 0o644], ofItemAtPath: filePath)
        }
        return DemoFolder(path: path)
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
