import Foundation
import Glibc
import Testing
import TestProcessSupport

/// `serve --watch-group`: the group's members attach and read, and may not act; everyone else
/// is refused as before. The watchers are uid 65534 (nobody) run by setpriv with a group that
/// no group database names (a number), as primary or as supplementary group (SO_PEERGROUPS).
@Suite("daemon watchers")
struct DaemonWatchGroupTests {
    static let group = "64999"
    static let setpriv = "/usr/bin/setpriv"

    /// `installtop ARGUMENTS --socket SOCKET` as nobody with `groups` (setpriv's options), run
    /// from `copies`.
    static func asNobody(_ daemon: DaemonFixture, _ copies: OtherUserExecutables, groups: [String], _ arguments: [String]) async throws -> RunResult {
        try await InstalltopProcess(["--reuid=65534"] + groups + [copies.path("installtop")] + arguments + ["--socket", daemon.socket],
                                    in: daemon.folder, executable: setpriv).finish(timeout: .seconds(120))
    }

    @Test("a member of the watch group reads status and may not abort; the engine's uid still may; others are refused",
          .enabled(if: getuid() == 0, "needs root to run clients as uid 65534 (nobody)"))
    func watchersReadAndDoNotAct() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.setpriv), "setpriv (util-linux) runs the clients as nobody")
        let copies = try OtherUserExecutables(copying: [try InstalltopBinary.path()])
        defer { copies.remove() }
        // 0711: nobody may pass through to the socket but not list or write the directory.
        let daemon = try DaemonFixture(mode: 0o711)
        defer { daemon.remove() }
        let serve = try await daemon.start(extraArguments: ["--watch-group", Self.group])
        var info = stat()
        #expect(stat(daemon.socket, &info) == 0 && info.st_mode & 0o777 == 0o660 && info.st_gid == UInt32(Self.group)!,
                "the socket is mode 0660 and of the watch group: \(String(info.st_mode & 0o777, radix: 8)), gid \(info.st_gid)")

        let manifest = try daemon.manifest(job: "Gated job", update: "gated", script: daemon.gatedScript())
        #expect(try await daemon.run(["submit", manifest]).status == 0)
        try await daemon.waitForJob(1, state: "running")

        // A supplementary member (the kernel says so through SO_PEERGROUPS), then a primary one.
        for groups in [["--regid=65534", "--groups=\(Self.group)"], ["--regid=\(Self.group)", "--clear-groups"]] {
            let status = try await Self.asNobody(daemon, copies, groups: groups, ["status", "--json"])
            #expect(status.status == 0 && status.stdout.contains("\"Gated job\""), "\(groups): \(status.stdout)\(status.stderr)")
        }
        let member = ["--regid=65534", "--groups=\(Self.group)"]
        let abort = try await Self.asNobody(daemon, copies, groups: member, ["abort", "1"])
        #expect(abort.status == 1 && abort.stdout.isEmpty, "\(abort.stdout)\(abort.stderr)")
        #expect(abort.stderr.contains("abort refused: uid 65534 watches this engine as a member of group \(Self.group); only uid 0 may"),
                "\(abort.stderr)")
        let cleanup = try await Self.asNobody(daemon, copies, groups: member, ["cleanup", "1"])
        #expect(cleanup.status == 1 && cleanup.stderr.contains("cleanup refused"), "\(cleanup.stderr)")
        try await waitUntil("serve to log the refusal; stderr:\n\(serve.stderr)") {
            serve.stderr.contains("refused abort from client") && serve.stderr.contains("a watcher may not act")
        }
        #expect(try await daemon.statusJob(1)?["abortRequested"] as? Bool == false, "a watcher's abort changed nothing")

        // Not a member: the socket's mode keeps it out; opened up, the engine refuses it,
        // naming who is served.
        let outsider = ["--regid=65534", "--clear-groups"]
        let denied = try await Self.asNobody(daemon, copies, groups: outsider, ["status"])
        #expect(denied.status == 1 && denied.stderr.contains("admits only its owner (root) and the members of group \(Self.group)"),
                "\(denied.stderr)")
        #expect(chmod(daemon.socket, 0o666) == 0)
        let refused = try await Self.asNobody(daemon, copies, groups: outsider, ["status"])
        #expect(refused.status == 1 && refused.stderr.contains("serves uid 0 and the members of group \(Self.group) only"),
                "\(refused.stderr)")

        // The engine's own uid acts as before.
        #expect(try await daemon.run(["abort", "1"]).status == 0)
        try daemon.release()
        try await daemon.waitForJob(1, state: "aborted")
    }

    @Test("serve --watch-group with a group no one has: a usage error naming it, nothing served")
    func anUnknownGroupIsAUsageError() async throws {
        let daemon = try DaemonFixture()
        defer { daemon.remove() }
        let result = try await installtop(["serve", "--socket", daemon.socket, "--no-history", "--watch-group", "no-such-group-itop"],
                                          in: daemon.folder)
        #expect(result.status == 2 && result.stderr.contains("no group no-such-group-itop"), "\(result.status) \(result.stderr)")
        var info = stat()
        #expect(stat(daemon.socket, &info) != 0, "no socket was made")
    }
}
