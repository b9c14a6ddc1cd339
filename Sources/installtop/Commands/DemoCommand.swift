import ArgumentParser
import Foundation
import InstallEngine

/// `installtop demo`: runs the bundled demo manifest, real child processes included.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the bundled demo: successes, a failure, a reboot, an indeterminate update and a slow one worth aborting.",
        discussion: """
            The demo's scripts are written to a fresh temporary folder and removed afterwards, so \
            it works from any directory. INSTALLTOP_DEMO_SPEED=4 makes every script four times faster.
            """
    )

    @OptionGroup var options: RunOptions

    func run() throws {
        let folder: DemoFolder
        do {
            folder = try DemoFolder.create()
        } catch {
            StandardOutput.stderr.line("installtop: cannot write the demo's files: \(error.localizedDescription)")
            throw ExitCode(1)
        }
        defer { folder.remove() }
        let manifest: Manifest
        do {
            manifest = try ManifestLoader.load(contentsOfFile: folder.manifestPath)
        } catch {
            // The demo manifest is ours; a failure here is a bug worth showing in full.
            StandardOutput.stderr.line("installtop: the bundled demo manifest is invalid:\n\(error.description)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
        let status = RunSession(manifest: manifest, options: options).run()
        throw ExitCode(status.rawValue)
    }
}
