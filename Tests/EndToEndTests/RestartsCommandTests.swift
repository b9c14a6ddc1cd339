import Foundation
import Glibc
import TestProcessSupport
import Testing

/// `installtop restarts [--json]` (rule 32): the scan of this machine's /proc over a process the
/// test starts, a test root for the kernel and reboot-required checks, and the exit statuses.
@Suite("installtop restarts")
struct RestartsCommandTests {
    /// A copy of libz in `folder` and a test root (`folder/root`) whose newest kernel is newer
    /// than any running one and whose run/reboot-required names libc6; returns the copy's path.
    private func prepare(_ folder: TestFolder) throws -> String {
        let library = try PreloadingSleeper.libraryCopy(in: folder.path)
        for path in ["root/boot", "root/run", "root/etc"] {
            try FileManager.default.createDirectory(atPath: folder.file(path), withIntermediateDirectories: true)
        }
        try folder.write("root/boot/vmlinuz-999.1.0-1-amd64", "")
        try folder.write("root/run/reboot-required", "")
        try folder.write("root/run/reboot-required.pkgs", "libc6\n")
        try folder.write("root/etc/passwd", "root:x:0:0:root:/root:/bin/sh\n")
        return library
    }

    /// Once `sleeper` maps `library`, replaces it as dpkg does (`X.dpkg-new` renamed over `X`).
    private func replaceOnceMapped(_ library: String, by sleeper: PreloadingSleeper) async throws {
        #expect(await eventually { sleeper.maps(library) })
        try FileManager.default.copyItem(atPath: library, toPath: library + ".dpkg-new")
        #expect(rename(library + ".dpkg-new", library) == 0)
    }

    @Test("--json: the process with pid, command, user, unit and the file; the reboot and why; exit 1")
    func json() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let library = try prepare(folder)
        let sleeper = try PreloadingSleeper(preloading: library)
        defer { sleeper.stop() }
        try await replaceOnceMapped(library, by: sleeper)

        let result = try await installtop(["restarts", "--json", "--root", folder.file("root")], in: folder)

        #expect(result.status == 1, "stderr: \(result.stderr)")
        let objects = try result.jsonObjects()
        #expect(objects.count == 1)
        let document = JSONEvent(fields: objects.first ?? [:])
        #expect(document.bool("restartNeeded") == true)
        #expect(document.bool("rebootRequired") == true)
        let running = try String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let reasons = document.fields["rebootReasons"] as? [[String: Any]] ?? []
        #expect(reasons.count == 2)
        #expect(reasons.first?["reason"] as? String == "kernel")
        #expect(reasons.first?["running"] as? String == running)
        #expect(reasons.first?["installed"] as? String == "999.1.0-1-amd64")
        #expect(reasons.last?["reason"] as? String == "reboot-required")
        #expect(reasons.last?["packages"] as? [String] == ["libc6"])
        #expect(document.fields["services"] is [String])
        #expect(document.fields["unreadable"] is [Any])
        let processes = document.fields["processes"] as? [[String: Any]] ?? []
        let listed = try #require(processes.first { ($0["pid"] as? NSNumber)?.int32Value == sleeper.pid })
        #expect(listed["command"] as? String == "sleep")
        #expect(listed["uid"] as? NSNumber == NSNumber(value: getuid()))
        #expect(listed["user"] as? String == (getuid() == 0 ? "root" : String(getuid())))
        let owner = listed["owner"] as? String
        #expect(["service", "session", "container", "process"].contains(owner ?? ""))
        #expect((listed["unit"] is NSNull) == (owner != "service"))
        #expect(listed["ownerName"] != nil)
        let files = listed["files"] as? [[String: Any]] ?? []
        #expect(files.count == 1)
        #expect(files.first?["path"] as? String == library)
        #expect(files.first?["change"] as? String == "deleted")
    }

    @Test("text: the headline, the reboot reasons and the process under its group; exit 1")
    func text() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let library = try prepare(folder)
        let sleeper = try PreloadingSleeper(preloading: library)
        defer { sleeper.stop() }
        try await replaceOnceMapped(library, by: sleeper)

        // Wide enough for the whole path; `fittedToEightyColumns` checks the fitting.
        let result = try await installtop(["restarts", "--root", folder.file("root")], in: folder, environment: ["COLUMNS": "1000"])

        #expect(result.status == 1, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("reboot required: kernel 999.1.0-1-amd64 is installed"), "\(result.stdout)")
        #expect(result.stdout.contains("reboot required: /run/reboot-required (libc6)"))
        let line = result.stdoutLines.first { $0.hasPrefix("\(sleeper.pid) ") }
        #expect(line?.contains("sleep") == true, "\(result.stdout)")
        #expect(line?.hasSuffix(library + " (deleted)") == true, "\(result.stdout)")
    }

    @Test("text at 80 columns: every line fits; long files are shown by name beside their row, or under it when the other columns leave no room")
    func fittedToEightyColumns() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let library = "/usr/lib/x86_64-linux-gnu/libavcodec-extra.so.59"
        for path in ["root/etc", "proc/812", "proc/900"] {
            try FileManager.default.createDirectory(atPath: folder.file(path), withIntermediateDirectories: true)
        }
        try folder.write("root/etc/passwd", "www-data:x:33:33::/var/www:/usr/sbin/nologin\n")
        let maps = "7f0000000000-7f0000100000 r-xp 00000000 fd:01 4242 \(library) (deleted)\n"
            + "7f0000100000-7f0000200000 r-xp 00000000 fd:01 4243 /usr/lib/x86_64-linux-gnu/libcrypto.so.3 (deleted)\n"
        try folder.write("proc/812/comm", "nginx\n")
        try folder.write("proc/812/cgroup", "0::/system.slice/nginx.service\n")
        try folder.write("proc/812/maps", maps)
        // A container's long name leaves the files no room beside it.
        try folder.write("proc/900/comm", "app-server-long\n")
        try folder.write("proc/900/cgroup", "0::/system.slice/docker-\(String(repeating: "0123456789abcdef", count: 4)).scope\n")
        try folder.write("proc/900/maps", maps)
        let arguments = ["restarts", "--proc", folder.file("proc"), "--root", folder.file("root")]

        let narrow = try await installtop(arguments, in: folder, environment: ["COLUMNS": "80"])
        try FileManager.default.removeItem(atPath: folder.file("proc/900"))
        let service = try await installtop(arguments, in: folder, environment: ["COLUMNS": "80"])

        #expect(narrow.status == 1, "stderr: \(narrow.stderr)")
        for line in narrow.stdoutLines + service.stdoutLines {
            #expect(line.count <= 80, "\(line.count) columns: \(line)")
        }
        // The container's row, cut, and the files of each row on a line of their own under it.
        let rows = narrow.stdoutLines
        let container = try #require(rows.firstIndex { $0.hasPrefix("900 ") }, "\(narrow.stdout)")
        #expect(rows[container].contains("app-server-long"))
        #expect(rows[container + 1] == "    libavcodec-extra.so.59 (deleted), libcrypto.so.3 (deleted)", "\(narrow.stdout)")
        // The service alone: its files beside it, by name.
        let row = try #require(service.stdoutLines.first { $0.hasPrefix("812 ") }, "\(service.stdout)")
        #expect(row.contains("nginx.service"))
        #expect(row.hasSuffix("  libavcodec-extra.so.59 (deleted) +1"), "\(service.stdout)")
    }

    /// Whether this test process's cgroup is a systemd service's or a container's (its children
    /// are then that unit's, not candidates for an init script's service).
    private static var inServiceOrContainer: Bool {
        let text = (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""
        return [".service", "docker", "lxc", "kubepods", "libpod", "machine-"].contains { text.contains($0) }
    }

    @Test("--json: a process a pid file under the root's run/ names, written after it started, is that init script's service",
          .enabled(if: !inServiceOrContainer))
    func initScriptService() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let library = try prepare(folder)
        let sleeper = try PreloadingSleeper(preloading: library)
        defer { sleeper.stop() }
        try await replaceOnceMapped(library, by: sleeper)
        let script = "installtop-test-\(getpid())"
        for path in ["root/etc/init.d", "root/run/\(script)"] {
            try FileManager.default.createDirectory(atPath: folder.file(path), withIntermediateDirectories: true)
        }
        try folder.write("root/etc/init.d/\(script)", "#!/bin/sh\n", executable: true)
        try folder.write("root/run/\(script)/\(script).pid", "\(sleeper.pid)\n")

        let result = try await installtop(["restarts", "--json", "--root", folder.file("root")], in: folder)

        #expect(result.status == 1, "stderr: \(result.stderr)")
        let document = JSONEvent(fields: try result.jsonObjects().first ?? [:])
        let processes = document.fields["processes"] as? [[String: Any]] ?? []
        let listed = try #require(processes.first { ($0["pid"] as? NSNumber)?.int32Value == sleeper.pid }, "\(result.stdout)")
        #expect(listed["owner"] as? String == "init-script")
        #expect(listed["ownerName"] as? String == script)
        #expect((document.fields["services"] as? [String])?.contains("/etc/init.d/\(script)") == true)
    }

    @Test("exit 0 and the all-clear when nothing runs old code and no reboot is needed")
    func nothingToDo() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("proc"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.file("root"), withIntermediateDirectories: true)

        let json = try await installtop(["restarts", "--json", "--proc", folder.file("proc"), "--root", folder.file("root")], in: folder)
        let text = try await installtop(["restarts", "--proc", folder.file("proc"), "--root", folder.file("root")], in: folder)

        #expect(json.status == 0, "stderr: \(json.stderr)")
        #expect(json.stdout == #"{"restartNeeded":false,"rebootRequired":false,"rebootReasons":[],"services":[],"processes":[],"unreadable":[],"otherRoots":[],"complete":true,"unreadableProcesses":0,"failedRestarts":[]}"# + "\n")
        #expect(text.status == 0)
        #expect(text.stdout == "Nothing runs deleted or replaced code; no reboot needed.\n")
    }

    @Test("exit 2 for a usage error")
    func usage() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }

        let result = try await installtop(["restarts", "--jsn"], in: folder)

        #expect(result.status == 2)
        #expect(result.stderr.contains("--jsn"))
    }
}
