import APTTestSupport
import Foundation
import Glibc
import TestProcessSupport
import Testing

/// Rule 32 in the real monitor, of `run` and attached to `serve`: after a job replaced a library
/// that a service's process maps, `R` asks, listing the service and the process of no service,
/// and `y` runs the restart job through a fake `systemctl` on PATH that records its arguments.
@Suite("Monitor end to end: restarts", .serialized)
struct RestartMonitorEndToEndTests {
    @Test("R after a job replaced a library a service maps: the question lists it, y runs systemctl restart for it only",
          .enabled(if: LiveCgroup.available), arguments: [false, true])
    func restartKey(attached: Bool) async throws {
        let folder = try EndToEndFolder()
        defer { folder.remove() }
        let library = try PreloadingSleeper.libraryCopy(in: folder.url.path)
        let cgroup = try LiveCgroup(unit: "installtop-e2e-\(getpid()).service")
        defer { cgroup.remove() }
        let service = try PreloadingSleeper(preloading: library)
        defer { service.stop() }
        try cgroup.add(service.pid)
        let loose = try PreloadingSleeper(preloading: library)
        defer { loose.stop() }
        #expect(await EndToEndFolder.eventually { service.maps(library) && loose.maps(library) })

        try FileManager.default.createDirectory(atPath: folder.path("bin"), withIntermediateDirectories: true)
        try folder.write("bin/systemctl", "#!/bin/sh\necho \"$*\" >> '\(folder.path("systemctl.log"))'\n", executable: true)
        try folder.write("manifest.yaml", """
            jobs:
              - name: Upgrade libz
                updates:
                  - id: libz
                    title: Replace libz the way dpkg does
                    install: [sh, -c, "cp '\(library)' '\(library).dpkg-new' && mv '\(library).dpkg-new' '\(library)'"]

            """)
        let binary = try EndToEndFolder.binary()
        let path = folder.path("bin") + ":/usr/bin:/bin"
        var serve: InstalltopChild?
        let command: String
        if attached {
            // The engine runs the restart job: systemctl is looked up on serve's PATH.
            chmod(folder.url.path, 0o700)
            let socket = folder.path("engine.sock")
            // The dpkg of an empty private root: an apt run on the host is no job of this engine.
            let quietAPT = try APTTestRoot(folder: folder.path("quiet-apt"))
            serve = try InstalltopChild(["serve", "--socket", socket, "--no-history", "--apt-config", quietAPT.configuration], in: folder,
                                        environment: ["PATH": path])
            #expect(await EndToEndFolder.eventually { serve?.stderr.contains("serving on") == true }, "\(serve?.stderr ?? "")")
            let submitted = try await InstalltopChild.run(["submit", folder.path("manifest.yaml"), "--socket", socket], in: folder)
            #expect(submitted.status == 0, "\(submitted.stderr)")
            command = "'\(binary)' attach --socket '\(socket)'; sleep 3600"
        } else {
            command = "PATH='\(path)' '\(binary)' run '\(folder.path("manifest.yaml"))' --no-history; sleep 3600"
        }
        defer { serve = nil }
        let tmux = try TmuxSession(home: folder.url, command: command)
        defer { tmux.close() }
        await tmux.waitForScreen("the header's services to restart") { $0.contains("to restart") }

        tmux.send("R")

        let question = await tmux.waitForScreen("the question listing the service") {
            $0.contains("restart    \(cgroup.unit)") && $0.contains("no service \(loose.pid) sleep")
        }
        #expect(question?.contains("y restarts the") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.path("systemctl.log")), "nothing restarted before y")

        tmux.send("y")

        #expect(await EndToEndFolder.eventually { folder.read("systemctl.log")?.contains("restart \(cgroup.unit)\n") == true })
        await tmux.waitForScreen("the restart job done") { $0.contains("Restart services") && $0.contains("✔") }
        // Each restart is followed by its check (`is-active`, which the fake answers with 0: active).
        let calls = (folder.read("systemctl.log") ?? "").split(separator: "\n").filter { !$0.hasPrefix("is-active ") }
        #expect(calls.allSatisfy { $0.hasPrefix("restart ") }, "\(calls)")
        #expect(calls.filter { $0 == "restart \(cgroup.unit)" }.count == 1, "\(calls)")
        tmux.send("q")
    }
}
