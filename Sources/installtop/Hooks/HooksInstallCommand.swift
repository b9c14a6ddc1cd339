import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallHistory
import RestartScan
import TextBasics

/// `installtop hooks install`: writes the hook files (replacing installtop's own earlier ones).
struct HooksInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Write the apt and dpkg hooks that report every transaction to the engine's socket.",
        discussion: """
            Every apt run (and on the real root every dpkg run) then sends its plan, dpkg's status \
            lines and its start and end to the engine through installtop-relay, which never waits \
            for the engine and never changes an exit status. The real root's hooks need root; \
            --apt-config may name a root you can write. Exit status: 0 written, 1 a file could not \
            be written, 2 usage, or not root where the hooks go into folders only root may write.
            """
    )

    @OptionGroup var options: HookOptions

    @Option(help: ArgumentHelp("The relay the hooks run (default: installtop-relay next to this installtop).", valueName: "path"))
    var relay: String?

    @Flag(help: ArgumentHelp(
        "Also keep the versions every apt run replaces, before dpkg starts, for `installtop apt undo` (delays each apt run by the keeping).",
        discussion: "The runs and kept files go to --history-db's history and its undo folder; a keeping that fails never fails apt's run."))
    var keepForUndo = false

    @Option(help: ArgumentHelp("With --keep-for-undo: the history the kept runs are recorded in (default: installtop's).", valueName: "path"))
    var historyDb: String?

    func run() throws {
        let relayPath = relay ?? Self.defaultRelay()
        guard HookFiles.isPlainPath(relayPath) else {
            throw ValidationError("the relay's path must be absolute and hold only letters, digits and / . _ + - @ , = (got \(relayPath))")
        }
        let files = try options.files()
        try Self.refuseFoldersClosedToUser(files)
        let socket = try options.socketPath()
        guard HookFiles.shellQuotedIfPossible(socket) != nil else {
            throw ValidationError("the socket's path must not hold quotes (got \(socket))")
        }
        var keeper: (installtop: String, historyDb: String)?
        if keepForUndo {
            let installtop = ProcFS().ownExecutable() ?? CommandLine.arguments[0]
            guard HookFiles.isPlainPath(installtop) else {
                throw ValidationError("installtop's path must be absolute and hold only letters, digits and / . _ + - @ , = (got \(installtop))")
            }
            let database = historyDb.map { URL(fileURLWithPath: $0).path } ?? HistoryStore.defaultPath()
            guard HookFiles.shellQuotedIfPossible(database) != nil else {
                throw ValidationError("the history's path must not hold quotes (got \(database))")
            }
            keeper = (installtop, database)
        } else if historyDb != nil {
            throw ValidationError("--history-db is for --keep-for-undo")
        }
        var written: [(path: String, text: String)] = [(files.aptFile, files.aptText(relay: relayPath, socket: socket, keeper: keeper))]
        if let dpkgFile = files.dpkgFile { written.append((dpkgFile, files.dpkgText(relay: relayPath, socket: socket))) }
        for (path, text) in written {
            do {
                try text.write(toFile: path, atomically: true, encoding: .utf8)
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
            } catch {
                StandardOutput.stderr.line("installtop: cannot write \(path): \(ErrorText.reason(error))")
                throw ExitCode(1)
            }
            StandardOutput.stdout.line("wrote \(path)")
        }
        if !FileManager.default.isExecutableFile(atPath: relayPath) {
            StandardOutput.stdout.line("note: \(relayPath) is not there yet; until it is, the hooks read and discard their input")
        }
        StandardOutput.stdout.line("the hooks report to \(socket); `installtop watch` (or `installtop serve`) listens there")
        if let keeper {
            StandardOutput.stdout.line("every apt run keeps the versions it replaces for undo in \(keeper.historyDb) (installtop history --jobs)")
        }
    }

    /// Refuses (exit status 2, nothing written) a user who is not root and may not write a folder
    /// the hooks go into: the real root's are root's, and a private root (`--apt-config`) may
    /// be the user's own. A folder that is missing is left to the write to report.
    private static func refuseFoldersClosedToUser(_ files: HookFiles) throws {
        guard geteuid() != 0 else { return }
        let folders: [String] = [files.aptParts] + (files.dpkgParts.map { [$0] } ?? [])
        let closed = folders.filter { folder in
            access(folder, W_OK) != 0 && (errno == EACCES || errno == EPERM || errno == EROFS)
        }
        guard !closed.isEmpty else { return }
        StandardOutput.stderr.line(
            "installtop: hooks install needs root: you may not write \(closed.joined(separator: " or ")), where the hooks go;"
                + " run it as root (sudo installtop hooks install), or give --apt-config for a root you can write")
        throw ExitCode(ExitStatus.invalidUsage.rawValue)
    }

    /// `installtop-relay` in the folder of the running executable.
    static func defaultRelay() -> String {
        let executable = ProcFS().ownExecutable() ?? CommandLine.arguments[0]
        return PathText.parent(of: executable) + "/installtop-relay"
    }
}
