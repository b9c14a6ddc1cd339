import Foundation
import PackagePlugin

/// Embeds the package's `Drivers/ansible/` (the Ansible callback plugin installtop ships) into
/// the target as a generated Swift file, so `installtop ansible` works wherever the binary runs
/// while the plugin stays a file a reader can open and test on its own.
@main
struct EmbedDrivers: BuildToolPlugin {
    /// One build command over every file of the folder; a new or changed file re-runs it.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Drivers/ansible")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "DriverFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the drivers' \(files.count) files",
                executable: try context.tool(named: "embed-files").url,
                arguments: ["DriverFiles", output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            ),
        ]
    }
}
