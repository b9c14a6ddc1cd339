import APTTestSupport
import Foundation
import Glibc
import Testing

/// The real unattended-upgrade (from `apt-get download`, unpacked by `Scripts/install-prerequisites test` into
/// `.build/unattended-upgrades/root`, never installed) upgrading a package of a private root,
/// seen through the hooks as an observed job that names its origins.
///
/// unattended-upgrade opens apt's cache with `rootdir="/"`, which sets `Dir` to `/` whatever
/// `APT_CONFIG` says, and keeps its lock, pid and progress files under `/run`: run as is, it
/// reads (and writes) the machine's apt state. So it runs in a mount namespace of its own in
/// which the private root's `etc/apt`, `var/lib/apt`, `var/cache/apt`, `var/lib/dpkg` and
/// `var/log/apt` are bound over the machine's and `/run` is an empty tmpfs; dpkg itself gets
/// the private root's `--root` and `--log` from `APT_CONFIG`'s `DPkg::Options`.
@Suite("unattended-upgrade as an observed job", .serialized)
struct UnattendedUpgradeTests {
    static let tree = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/unattended-upgrades/root").path
    static var program: String { tree + "/usr/bin/unattended-upgrade" }

    @Test(
        "unattended-upgrade upgrades lab-up 1.0 → 2.0 in a private root, seen through the hooks or (without) dpkg's log: one observed job named after it with its origins, the upgrade succeeded",
        .enabled(if: FileManager.default.isExecutableFile(atPath: program),
                 "no unattended-upgrade tree at .build/unattended-upgrades/root (Scripts/install-prerequisites test downloads and unpacks it)"),
        .enabled(if: getuid() == 0, "the mount namespace it runs in needs root"),
        arguments: [true, false])
    func upgrade(hooked: Bool) async throws {
        let host = HostPackageFingerprint()
        let apt = try APTTestRoot()
        defer { apt.remove() }
        try apt.publish([TestPackage(name: "lab-up")])
        try #require(try apt.aptGet(["install", "-y", "lab-up"]).status == 0)
        // Held in its postinst until the job is seen: dpkg's log is polled, not followed live.
        try apt.publish([TestPackage(name: "lab-up", version: "2.0", postinst: "while [ ! -e \"$DPKG_ROOT/release\" ]; do sleep 0.05; done")])
        let release = apt.root + "/release"
        let root = apt.root
        for folder in ["var/run", "var/log/unattended-upgrades"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        let configuration = try String(contentsOfFile: apt.configuration, encoding: .utf8) + """
            Unattended-Upgrade::Origins-Pattern { "origin=*"; };
            Unattended-Upgrade::LogDir "\(root)/var/log/unattended-upgrades/";

            """
        try configuration.write(toFile: apt.configuration, atomically: true, encoding: .utf8)

        let fixture = try DaemonFixture(history: true)
        defer { fixture.folder.remove() }
        try await fixture.start(extraArguments: ["--apt-config", apt.configuration])
        if hooked {
            let hooks = try await installtop(["hooks", "install", "--apt-config", apt.configuration, "--socket", fixture.socket], in: fixture.folder)
            try #require(hooks.status == 0, "\(hooks.stdout)\(hooks.stderr)")
        }
        let client = try await RawClient.subscribed(to: fixture.socket)
        defer { client.close() }

        let binds = ["etc/apt", "var/lib/apt", "var/cache/apt", "var/lib/dpkg", "var/log/apt"]
            .map { "mount --bind '\(root)/\($0)' '/\($0)'" }.joined(separator: " && ")
        let script = "mount -t tmpfs tmpfs /run && \(binds) && exec '\(Self.program)' -v"
        let output = fixture.folder.file("uu.out")
        let run = try SpawnedProcess(
            executable: "/usr/bin/unshare", arguments: ["--mount", "--propagation", "private", "/bin/sh", "-c", script],
            environment: ProcessInfo.processInfo.environment.merging(
                apt.environment.merging(["PYTHONPATH": Self.tree + "/usr/lib/python3/dist-packages"]) { _, new in new }) { _, new in new },
            workingDirectory: fixture.folder.path, stdoutPath: try fixture.folder.write("uu.out", ""),
            stderrPath: try fixture.folder.write("uu.err", ""))
        defer {
            _ = FileManager.default.createFile(atPath: release, contents: nil)
            if run.poll() == nil { kill(run.pid, SIGKILL) }
            _ = run.waitBlocking()
        }
        let running = try await client.read(until: "lab-up configuring", timeout: .seconds(120)) {
            $0.name == "progress" && ($0.string("message") ?? "").contains("Configuring")
        }
        _ = FileManager.default.createFile(atPath: release, contents: nil)
        let events = try running + (await client.read(until: "unattended-upgrade's job.completed", timeout: .seconds(120)) { $0.name == "job.completed" })
        try await waitUntil("unattended-upgrade to exit", timeout: .seconds(120)) { run.poll() != nil }
        let said = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        #expect(run.poll() == 0 && said.contains("Packages that will be upgraded: lab-up"), "\(said)")

        let queued = try #require(events.first { $0.name == "job.queued" })
        #expect(queued.bool("observed") == true)
        let by = try #require(queued.fields["observedBy"] as? [String: Any])
        #expect(by["program"] as? String == "unattended-upgr", "\(by)")
        let name = queued.string("name") ?? ""
        #expect(name.hasPrefix("unattended-upgrade — root") && name.contains("origins: origin=*"), "\(name)")
        #expect(name.contains("from dpkg's log") == !hooked, "\(name)")
        let updates = queued.fields["updates"] as? [[String: Any]] ?? []
        #expect(updates.compactMap { $0["title"] as? String } == ["lab-up 1.0 → 2.0"], "\(updates)")
        let results = events.filter { $0.name == "update.completed" }.compactMap { $0.string("result") }
        #expect(results == ["succeeded"], "\(events.filter { $0.name == "update.completed" }.map(\.fields))")
        let state = try apt.states()["lab-up"]
        #expect(state?.status == "ii" && state?.version == "2.0", "\(String(describing: state))")
        #expect(host.changes(since: HostPackageFingerprint()).isEmpty)
    }
}
