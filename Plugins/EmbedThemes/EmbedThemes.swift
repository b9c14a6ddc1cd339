import Foundation
import PackagePlugin

/// Embeds the package's `Themes/*.yaml` into the target as a generated Swift file, so the
/// built binary carries its themes wherever it runs while `Themes/` stays the only source.
@main
struct EmbedThemes: BuildToolPlugin {
    /// One build command over every theme file; a new or changed file re-runs it.
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let themes = context.package.directoryURL.appending(path: "Themes")
        let files = try FileManager.default.contentsOfDirectory(at: themes, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "yaml" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedThemes.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(files.count) themes",
                executable: try context.tool(named: "embed-files").url,
                arguments: ["--strip-extension", "EmbeddedThemes", output.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]
            ),
        ]
    }
}
