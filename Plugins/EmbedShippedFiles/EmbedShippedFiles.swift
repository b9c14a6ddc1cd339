import Foundation
import PackagePlugin

/// Embeds the folders of files the binary ships into the target as generated Swift files, so
/// `installtop demo` and `installtop ansible` work wherever the binary runs while the files stay
/// folders a reader can open, copy and test on their own:
/// - `Examples/demo/` (the demo's manifest and scripts) as `DemoFiles`;
/// - `Sources/InstallDrivers/Ansible/Plugin/` (the Ansible callback plugin, in its kind's
///   folder) as `DriverFiles`;
/// - `Sources/InstallDrivers/DNF/Helper/` (the dnf helper, in its kind's folder) as
///   `DNFHelperFiles`.
@main
struct EmbedShippedFiles: BuildToolPlugin {
    /// One build command per folder over every file in it; a new or changed file re-runs it.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        try [("Examples/demo", "DemoFiles", "the demo's"), ("Sources/InstallDrivers/Ansible/Plugin", "DriverFiles", "the drivers'"),
             ("Sources/InstallDrivers/DNF/Helper", "DNFHelperFiles", "the dnf helper's")].map { folder, name, what in
            let directory = context.package.directoryURL.appending(path: folder)
            // Files only: Python leaves a `__pycache__` folder beside a script it compiled.
            let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
                .filter { !$0.lastPathComponent.hasPrefix(".") && (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true }
                .sorted { $0.lastPathComponent < $1.lastPathComponent }
            let output = context.pluginWorkDirectoryURL.appending(path: "\(name).swift")
            return .buildCommand(
                displayName: "Embedding \(what) \(files.count) files",
                executable: try context.tool(named: "embed-files").url,
                arguments: [name, output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            )
        }
    }
}
