import Foundation
import PackagePlugin

/// Embeds the package's `Examples/demo/` (the demo's manifest and scripts) into the target as a
/// generated Swift file, so `installtop demo` works wherever the binary runs while the example
/// stays a folder a newcomer can read and copy.
@main
struct EmbedDemo: BuildToolPlugin {
    /// One build command over every file of the folder; a new or changed file re-runs it.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let folder = context.package.directoryURL.appending(path: "Examples/demo")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "DemoFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the demo's \(files.count) files",
                executable: try context.tool(named: "embed-files").url,
                arguments: ["DemoFiles", output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            ),
        ]
    }
}
