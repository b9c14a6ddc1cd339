import APTTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// `installtop watch` in tmux run by a user who is not root (nobody, through setpriv, from a
/// copy it can run) with no engine of their own: it attaches to the machine's engine, as a
/// member of its watch group, rather than run one of its own that no hook reports to. The
/// machine's socket is the test's (`INSTALLTOP_MACHINE_SOCKET`): a real engine at
/// /run/installtop.sock is never touched.
@Suite("installtop watch by a user who is not root")
struct WatchNotRootEndToEndTests {
    @Test("nobody's watch, with a runtime folder of its own and no engine in it, shows the machine's engine's job and starts no engine",
          .enabled(if: getuid() == 0, "needs root to run watch as uid 65534 (nobody)"))
    func watchTheMachineEngine() async throws {
        let group = "64999"
        let copies = try OtherUserExecutables(copying: [try EndToEndFolder.binary()], gid: gid_t(group)!)
        defer { copies.remove() }
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        // nobody passes through to the socket and the apt configuration, lists nothing.
        chmod(folder.url.path, 0o711)
        let quietAPT = try APTTestRoot(folder: folder.path("quiet-apt"))
        chmod(folder.path("quiet-apt"), 0o711)
        let machine = folder.path("machine.sock")
        var engines = [try InstalltopChild(["serve", "--socket", machine, "--no-history", "--apt-config", quietAPT.configuration,
                                            "--watch-group", group], in: folder)]
        // SIGTERM (the engine aborts its job, then exits), SIGKILL after 5 s.
        defer { engines.removeAll() }
        #expect(await EndToEndFolder.eventually { engines[0].stderr.contains("serving on") }, "\(engines[0].stderr)")
        try folder.write("sleep.sh", "#!/bin/sh\nexec sleep 900\n", executable: true)
        try folder.write("root.yaml", """
            jobs:
              - name: Job of root
                updates:
                  - {id: sleep, title: Sleep, install: [\(folder.path("sleep.sh"))]}
            """)
        let submitted = try await InstalltopChild.run(["submit", folder.path("root.yaml"), "--socket", machine], in: folder)
        #expect(submitted.status == 0, "\(submitted.stderr)")

        let runtime = folder.path("run-user-65534")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
        #expect(chown(runtime, 65_534, 65_534) == 0 && chmod(runtime, 0o700) == 0)
        let watch = ["/usr/bin/env", "XDG_RUNTIME_DIR=\(runtime)", "INSTALLTOP_MACHINE_SOCKET=\(machine)", "/usr/bin/setpriv",
                     "--reuid=65534", "--regid=65534", "--groups=\(group)", copies.path("installtop"), "watch",
                     "--apt-config", quietAPT.configuration, "--no-history"]
        let command = watch.map { "'\($0)'" }.joined(separator: " ")
            + " 2> '\(folder.path("watch.err"))'; \(folder.exitStatus(to: "rc")); sleep 3600"
        let tmux = try TmuxSession(width: 140, height: 30, home: folder.url, command: command)
        defer { tmux.close() }
        await tmux.waitForScreen("root's job on the machine's engine") { $0.contains("Job of root") }
        #expect(!FileManager.default.fileExists(atPath: runtime + "/installtop.sock"), "watch ran an engine of its own")

        tmux.send("d")
        #expect(await EndToEndFolder.eventually { folder.read("rc") != nil })
        #expect(folder.read("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(folder.read("watch.err") ?? "")")
    }
}
