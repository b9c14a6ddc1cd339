import ArgumentParser
import Foundation
import RestartScan

/// `installtop hooks install`: writes the hook files (replacing installtop's own earlier ones).
struct HooksInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Write the apt and dpkg hooks that report every transaction to the engine's socket.",
        discussion: """
            Every apt run (and on the real root every dpkg run) then sends its plan, dpkg's status \
            lines and its start and end to the engine through installtop-relay, which never waits \
            for the engine and never changes an exit status. Exit status: 0 written, 1 a file could \
            not be written, 2 usage.
            """
    )

    @OptionGroup var options: HookOptions

    @Option(help: ArgumentHelp("The relay the hooks run (default: installtop-relay next to this installtop).", valueName: "path"))
    var relay: String?

    func run() throws {
        let relayPath = relay ?? Self.defaultRelay()
        guard HookFiles.isPlainPath(relayPath) else {
            throw ValidationError("the relay's path must be absolute and hold only letters, digits and / . _ + - @ , = (got \(relayPath))")
        }
        let socket = try options.socketPath()
        guard HookFiles.shellQuotedIfPossible(socket) != nil else {
            throw ValidationError("the socket's path must not hold quotes (got \(socket))")
        }
        let files = try options.files()
        var written: [(path: String, text: String)] = [(files.aptFile, files.aptText(relay: relayPath, socket: socket))]
        if let dpkgFile = files.dpkgFile { written.append((dpkgFile, files.dpkgText(relay: relayPath, socket: socket))) }
        for (path, text) in written {
            do {
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            } catch {
                StandardOutput.stderr.line("installtop: cannot write \(path): \(error.localizedDescription)")
                throw ExitCode(1)
            }
            StandardOutput.stdout.line("wrote \(path)")
        }
        if !FileManager.default.isExecutableFile(atPath: relayPath) {
            StandardOutput.stdout.line("note: \(relayPath) is not there yet; until it is, the hooks read and discard their input")
        }
        StandardOutput.stdout.line("the hooks report to \(socket); `installtop watch` (or `installtop serve`) listens there")
    }

    /// `installtop-relay` in the folder of the running executable.
    static func defaultRelay() -> String {
        let executable = ProcFS().ownExecutable() ?? CommandLine.arguments[0]
        return (executable as NSString).deletingLastPathComponent + "/installtop-relay"
    }
}
