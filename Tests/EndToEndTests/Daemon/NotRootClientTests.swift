import Foundation
import Glibc
import Testing

/// Clients run by a user who is not root (nobody, through setpriv, from a copy of the binary it
/// can run) and who has no engine of their own reach the machine's engine, with or without
/// `XDG_RUNTIME_DIR` (Documentation/DAEMON.md); where that fails for permissions, the refusal
/// says how to be let in (`serve --watch-group`). The machine's socket is the test's own
/// (`INSTALLTOP_MACHINE_SOCKET`): a real engine at /run/installtop.sock is never touched.
@Suite("clients who are not root")
struct NotRootClientTests {
    static let group = "64999"

    @Test("bridge and status as a member of the watch group, without --socket, reach the machine's engine with and without XDG_RUNTIME_DIR",
          .enabled(if: getuid() == 0, "needs root to run clients as uid 65534 (nobody)"))
    func membersReachTheMachineEngine() async throws {
        let nobody = try NobodyInstalltop()
        defer { nobody.remove() }
        // 0711: nobody may pass through to the socket but not list or write the directory.
        let daemon = try DaemonFixture(history: true, mode: 0o711)
        defer { daemon.remove() }
        try await daemon.start(extraArguments: ["--watch-group", Self.group])
        let manifest = try daemon.manifest(job: "Job of root", update: "gated", script: daemon.gatedScript())
        #expect(try await daemon.run(["submit", manifest]).status == 0)
        try await daemon.waitForJob(1, state: "running")
        let runs = try daemon.folder.write("runs.in", #"{"command":"runs","id":1}"# + "\n")
        let member = NobodyInstalltop.member(of: Self.group)

        // A runtime folder of nobody's own with no engine in it, then none at all.
        for runtime in [try NobodyInstalltop.runtimeDirectory(in: daemon.folder), nil] {
            let status = try await nobody.run(["status", "--json"], ids: member, in: daemon.folder, runtimeDirectory: runtime,
                                              machineSocket: daemon.socket)
            #expect(status.status == 0 && status.stdout.contains("\"Job of root\""),
                    "XDG_RUNTIME_DIR \(runtime ?? "unset"): \(status.status) \(status.stdout)\(status.stderr)")
            let bridge = try await nobody.run(["bridge"], ids: member, in: daemon.folder, runtimeDirectory: runtime,
                                              machineSocket: daemon.socket, input: runs)
            #expect(bridge.status == 0 && bridge.stdout.hasPrefix(#"{"reply":"runs","id":1,"ok":true"#) && bridge.stderr.isEmpty,
                    "XDG_RUNTIME_DIR \(runtime ?? "unset"): \(bridge.status) \(bridge.stdout)\(bridge.stderr)")
        }
        try daemon.release()
        try await daemon.waitForJob(1, state: "succeeded")
    }

    @Test("with no engine of their own nor at the machine's socket, the bridge names both places it looked, or says XDG_RUNTIME_DIR is not set",
          .enabled(if: getuid() == 0, "needs root to run clients as uid 65534 (nobody)"))
    func noEngineAnywhere() async throws {
        let nobody = try NobodyInstalltop()
        defer { nobody.remove() }
        let folder = try TestFolder()
        defer { folder.remove() }
        chmod(folder.path, 0o711)
        let machine = folder.file("machine.sock")
        let runtime = try NobodyInstalltop.runtimeDirectory(in: folder)

        let both = try await nobody.run(["bridge"], in: folder, runtimeDirectory: runtime, machineSocket: machine)
        #expect(both.status == 1 && both.stdout.isEmpty, "\(both.status) \(both.stderr)")
        #expect(both.stderr == "installtop bridge: no engine on this host (looked at \(runtime)/installtop.sock and \(machine)): start the engine"
            + " the installtop package ships, `systemctl enable --now installtop.service`, or set the host up from the board's machine with"
            + " `installtop enroll --host NAME`\n", "\(both.stderr)")
        let machineOnly = try await nobody.run(["status"], in: folder, runtimeDirectory: nil, machineSocket: machine)
        #expect(machineOnly.status == 1, "\(machineOnly.status) \(machineOnly.stderr)")
        #expect(machineOnly.stderr.hasPrefix(
            "installtop: no engine is serving on the machine's socket \(machine), and XDG_RUNTIME_DIR is not set for one of your own"),
                "\(machineOnly.stderr)")
    }

    @Test("refused for permissions (the socket's mode, or the engine's SO_PEERCRED check), bridge and status name --watch-group",
          .enabled(if: getuid() == 0, "needs root to run clients as uid 65534 (nobody)"))
    func refusalsNameTheWatchGroup() async throws {
        let nobody = try NobodyInstalltop()
        defer { nobody.remove() }
        let watched = try DaemonFixture(mode: 0o711)
        defer { watched.remove() }
        try await watched.start(extraArguments: ["--watch-group", Self.group])
        let owned = try DaemonFixture(mode: 0o711)
        defer { owned.remove() }
        try await owned.start()

        // Not in the watch group: the socket (0660, of the group) keeps nobody out.
        let joinTheGroup = "the engine at \(watched.socket) admits only its owner (root) and the members of group \(Self.group);"
            + " ask its operator to add you to group \(Self.group), its `--watch-group` (a group you were just added to counts from your next login)\n"
        let outsider = try await nobody.run(["status"], in: watched.folder, runtimeDirectory: nil, machineSocket: watched.socket)
        #expect(outsider.status == 1 && outsider.stderr == "installtop: " + joinTheGroup, "\(outsider.status) \(outsider.stderr)")
        let outsideBridge = try await nobody.run(["bridge"], in: watched.folder, runtimeDirectory: nil, machineSocket: watched.socket)
        #expect(outsideBridge.status == 1 && outsideBridge.stderr == "installtop bridge: " + joinTheGroup,
                "\(outsideBridge.status) \(outsideBridge.stderr)")

        // No watch group: the socket (0600) admits root alone, and the way in is to serve with one.
        let serveWithAGroup = "the engine at \(owned.socket) admits only its owner (root);"
            + " ask its operator to run `installtop serve --watch-group GROUP` with a group you are in\n"
        let member = NobodyInstalltop.member(of: Self.group)
        let refused = try await nobody.run(["status"], ids: member, in: owned.folder, runtimeDirectory: nil, machineSocket: owned.socket)
        #expect(refused.status == 1 && refused.stderr == "installtop: " + serveWithAGroup, "\(refused.status) \(refused.stderr)")
        let refusedBridge = try await nobody.run(["bridge", "--socket", owned.socket], ids: member, in: owned.folder,
                                                 runtimeDirectory: nil, machineSocket: nil)
        #expect(refusedBridge.status == 1 && refusedBridge.stderr == "installtop bridge: " + serveWithAGroup,
                "\(refusedBridge.status) \(refusedBridge.stderr)")

        // Opened up, the socket lets nobody connect and the engine itself refuses, in the same terms.
        #expect(chmod(owned.socket, 0o666) == 0)
        let peer = try await nobody.run(["status"], in: owned.folder, runtimeDirectory: nil, machineSocket: owned.socket)
        #expect(peer.status == 1, "\(peer.status) \(peer.stderr)")
        #expect(peer.stderr.contains(
            "this engine serves uid 0 only; you are uid 65534: ask its operator to run `installtop serve --watch-group GROUP` with a group you are in"),
                "\(peer.stderr)")
    }
}
