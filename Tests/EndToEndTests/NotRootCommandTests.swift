import APTTestSupport
import Foundation
import Glibc
import Testing

/// Commands that act on what root keeps, run by a user who is not root (nobody, through
/// setpriv, from a copy of the binary it can run): each says that it needs root, or where
/// root's record is, instead of failing on a file it cannot open. Nothing here writes the
/// machine's own configuration: nobody cannot, and the private roots are the tests' own.
@Suite("commands run by a user who is not root")
struct NotRootCommandTests {
    @Test("hooks install as nobody: refused with exit 2 for an --apt-config it cannot read, for the real root and for a private root of root's; written into a private root nobody may write",
          .enabled(if: getuid() == 0, "needs root to run installtop as uid 65534 (nobody)"))
    func hooksInstallNeedsRoot() async throws {
        let nobody = try NobodyInstalltop()
        defer { nobody.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        chmod(folder.path, 0o711)
        let apt = try APTTestRoot(folder: folder.file("apt"))
        let socket = ["--socket", folder.file("engine.sock")]
        let unreadable = try await nobody.run(["hooks", "install", "--apt-config", apt.configuration] + socket, in: folder,
                                              runtimeDirectory: nil, machineSocket: nil)
        #expect(unreadable.status == 2 && unreadable.stderr.contains("cannot read --apt-config \(apt.configuration): Permission denied"),
                "apt-config would only warn and name the real root's folder: \(unreadable.status) \(unreadable.stderr)")
        // The root's folder was 0700; now nobody passes through to read the configuration.
        #expect(chmod(folder.file("apt"), 0o711) == 0)

        let machine = try await nobody.run(["hooks", "install"] + socket, in: folder, runtimeDirectory: nil, machineSocket: nil)
        #expect(machine.status == 2 && machine.stdout.isEmpty, "\(machine.status) \(machine.stdout)\(machine.stderr)")
        #expect(machine.stderr == "installtop: hooks install needs root: you may not write /etc/apt/apt.conf.d/ or /etc/dpkg/dpkg.cfg.d/,"
            + " where the hooks go; run it as root (sudo installtop hooks install), or give --apt-config for a root you can write\n",
                "\(machine.stderr)")

        let parts = apt.root + "/etc/apt/apt.conf.d"
        let rootsPrivate = try await nobody.run(["hooks", "install", "--apt-config", apt.configuration] + socket, in: folder,
                                                runtimeDirectory: nil, machineSocket: nil)
        #expect(rootsPrivate.status == 2 && rootsPrivate.stderr.hasPrefix("installtop: hooks install needs root: you may not write \(parts)/, where"),
                "\(rootsPrivate.status) \(rootsPrivate.stderr)")
        #expect(!FileManager.default.fileExists(atPath: parts + "/99installtop-observe"))

        #expect(chown(parts, 65_534, 65_534) == 0)
        let own = try await nobody.run(["hooks", "install", "--apt-config", apt.configuration] + socket, in: folder,
                                       runtimeDirectory: nil, machineSocket: nil)
        #expect(own.status == 0 && own.stdout.contains("wrote \(parts)/99installtop-observe"), "\(own.status) \(own.stdout)\(own.stderr)")
    }

    @Test("apt undo as nobody, with no history of its own or without the run in it: exit 2, naming root's histories and the commands that undo from them",
          .enabled(if: getuid() == 0, "needs root to run installtop as uid 65534 (nobody)"))
    func aptUndoPointsAtRootsHistory() async throws {
        let nobody = try NobodyInstalltop()
        defer { nobody.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        chmod(folder.path, 0o711)
        let service = folder.file("var-lib-installtop/history.sqlite3")
        let rootsHistory = "; root's history may hold it: sudo installtop apt undo 12 (root's own),"
            + " or sudo installtop apt undo 12 --history-db \(service) (the service's)\n"

        let state = folder.file("nobody-state")
        let missing = try await nobody.run(["apt", "undo", "12"], in: folder, runtimeDirectory: nil, machineSocket: nil,
                                           environment: ["INSTALLTOP_SERVICE_HISTORY": service, "XDG_STATE_HOME": state])
        #expect(missing.status == 2, "\(missing.status) \(missing.stderr)")
        #expect(missing.stderr == "installtop: apt undo 12: nothing was run: there is no history at \(state)/installtop/history.sqlite3,"
            + " so no run 12 to undo" + rootsHistory, "\(missing.stderr)")

        // A history of nobody's own, holding one run (a command job's), not run 12.
        let own = state + "/installtop/history.sqlite3"
        try folder.write("one.yaml", "jobs:\n  - name: Own job\n    updates:\n      - {id: mine, install: 'true'}\n")
        let recorded = try await installtop(["run", "--plain", "--history-db", own, "one.yaml"], in: folder)
        #expect(recorded.status == 0, "\(recorded.stderr)")
        for path in [state] + (FileManager.default.subpaths(atPath: state) ?? []).map({ state + "/" + $0 }) {
            #expect(chown(path, 65_534, 65_534) == 0, "\(path)")
        }
        let absent = try await nobody.run(["apt", "undo", "12"], in: folder, runtimeDirectory: nil, machineSocket: nil,
                                          environment: ["INSTALLTOP_SERVICE_HISTORY": service, "XDG_STATE_HOME": state])
        #expect(absent.status == 2, "\(absent.status) \(absent.stderr)")
        #expect(absent.stderr == "installtop: apt undo 12: nothing was run: run 12 is not in \(own) (installtop history --jobs lists its runs)"
            + rootsHistory, "\(absent.stderr)")
    }
}
