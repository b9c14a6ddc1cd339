import Foundation
import PackagePlugin

/// Embeds the folders of files the binary ships into the target as generated Swift files, so
/// `installtop demo` and `installtop ansible` work wherever the binary runs while the files stay
/// folders a reader can open, copy and test on their own:
/// - `Examples/demo/` (the demo's manifest and scripts) as `DemoFiles`;
/// - `Sources/InstallDrivers/Ansible/Plugin/` (the Ansible callback plugin, in its kind's
///   folder) as `DriverFiles`;
/// - `Sources/InstallDrivers/DNF/Helper/` (the dnf helper: its script and the Python package
///   beside it, in its kind's folder) as `DNFHelperFiles`.
///
/// A file in a subfolder is embedded by its path in the folder (`installtop_dnf/items.py`), so
/// that the folder written out at run time has the same shape.
@main
struct EmbedShippedFiles: BuildToolPlugin {
    /// One build command per folder over every file in it and in its subfolders; a new or changed
    /// file re-runs it.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        try [("Examples/demo", "DemoFiles", "the demo's"), ("Sources/InstallDrivers/Ansible/Plugin", "DriverFiles", "the drivers'"),
             ("Sources/InstallDrivers/DNF/Helper", "DNFHelperFiles", "the dnf helper's")].map { folder, name, what in
            let directory = context.package.directoryURL.appending(path: folder)
            let files = try Self.files(in: directory)
            let output = context.pluginWorkDirectoryURL.appending(path: "\(name).swift")
            return .buildCommand(
                displayName: "Embedding \(what) \(files.count) files",
                executable: try context.tool(named: "embed-files").url,
                arguments: ["--relative-to", directory.path, name, output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        }
    }

    /// The regular files under `directory`, sorted by path. Hidden files and Python's
    /// `__pycache__` folders (left beside modules that were imported, by the helper's tests too)
    /// are not shipped.
    static func files(in directory: URL) throws -> [URL] {
        var files: [URL] = []
        var folders = [directory]
        while let folder = folders.popLast() {
            for entry in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.isRegularFileKey, .isDirectoryKey]) {
                let name = entry.lastPathComponent
                guard !name.hasPrefix("."), name != "__pycache__" else { continue }
                let values = try entry.resourceValues(forKeys: [.isRegularFileKey, .isDirectoryKey])
                if values.isDirectory == true {
                    folders.append(entry)
                } else if values.isRegularFile == true {
                    files.append(entry)
                }
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}
