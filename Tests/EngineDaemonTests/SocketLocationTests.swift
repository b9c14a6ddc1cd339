import EngineDaemon
import Foundation
import Glibc
import Testing

@Suite("SocketLocation: the default path and the directory check")
struct SocketLocationTests {
    @Test func defaultPath() throws {
        #expect(try SocketLocation.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000)
            == "/run/user/1000/installtop.sock")
        #expect(try SocketLocation.defaultPath(environment: ["XDG_RUNTIME_DIR": "/run/user/0"], uid: 0)
            == "/run/user/0/installtop.sock", "root with XDG_RUNTIME_DIR uses it")
        #expect(try SocketLocation.defaultPath(environment: [:], uid: 0) == "/run/installtop.sock")
        #expect(try SocketLocation.defaultPath(environment: ["XDG_RUNTIME_DIR": ""], uid: 0) == "/run/installtop.sock")
        #expect(throws: DaemonError.noDefaultSocket) { try SocketLocation.defaultPath(environment: [:], uid: 1000) }
        #expect(throws: DaemonError.noDefaultSocket) {
            try SocketLocation.defaultPath(environment: ["XDG_RUNTIME_DIR": ""], uid: 1000)
        }
    }

    @Test func resolvePrefersTheOption() throws {
        #expect(try SocketLocation.resolve("/tmp/x.sock", environment: [:]) == "/tmp/x.sock")
        #expect(try SocketLocation.resolve("", environment: ["XDG_RUNTIME_DIR": "/r"]) == "/r/installtop.sock")
    }

    /// `connectForClient` with engines answering only at `listening`: the path it connected to,
    /// and every path it tried in order.
    private func connect(_ option: String?, environment: [String: String], uid: UInt32,
                         listening: Set<String>) throws(DaemonError) -> (connected: String, tried: [String]) {
        var tried: [String] = []
        let connected = try SocketLocation.connectForClient(option, environment: environment, uid: uid) { path throws(DaemonError) -> String in
            tried.append(path)
            guard listening.contains(path) else { throw .noEngine(path) }
            return path
        }
        return (connected, tried)
    }

    @Test("root in an SSH session (XDG_RUNTIME_DIR set) finds the system service's socket; its own engine comes first")
    func rootFallsBackToTheMachineSocket() throws {
        let session = ["XDG_RUNTIME_DIR": "/run/user/0"]
        #expect(try connect(nil, environment: session, uid: 0, listening: ["/run/installtop.sock"])
            == ("/run/installtop.sock", ["/run/user/0/installtop.sock", "/run/installtop.sock"]))
        #expect(try connect(nil, environment: session, uid: 0, listening: ["/run/user/0/installtop.sock", "/run/installtop.sock"])
            == ("/run/user/0/installtop.sock", ["/run/user/0/installtop.sock"]), "an engine of the session's own comes first")
        #expect(throws: DaemonError.noEngine("/run/installtop.sock"), "root's only default is the machine's") {
            try connect(nil, environment: [:], uid: 0, listening: [])
        }
    }

    @Test("a user who is not root and has no engine of their own reaches the machine's, with or without XDG_RUNTIME_DIR")
    func aUserReachesTheMachineEngine() throws {
        let session = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        #expect(try connect(nil, environment: session, uid: 1000, listening: ["/run/installtop.sock"])
            == ("/run/installtop.sock", ["/run/user/1000/installtop.sock", "/run/installtop.sock"]))
        #expect(try connect(nil, environment: [:], uid: 1000, listening: ["/run/installtop.sock"]).connected == "/run/installtop.sock")
        #expect(try connect(nil, environment: ["XDG_RUNTIME_DIR": ""], uid: 1000, listening: ["/run/installtop.sock"]).connected
            == "/run/installtop.sock")
        #expect(try connect(nil, environment: session, uid: 1000, listening: ["/run/user/1000/installtop.sock", "/run/installtop.sock"]).connected
            == "/run/user/1000/installtop.sock", "their own engine comes first")
    }

    @Test("with no engine anywhere the error names both places looked, or says XDG_RUNTIME_DIR is not set")
    func noEngineAnywhere() throws {
        let both = DaemonError.noEngineFound(own: "/run/user/1000/installtop.sock", machine: "/run/installtop.sock")
        #expect(throws: both) { try connect(nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000, listening: []) }
        #expect(both.description
            == "no engine is serving on /run/user/1000/installtop.sock or on the machine's socket /run/installtop.sock (start the machine's engine, "
            + "the unit the installtop package ships: `systemctl enable --now installtop.service`; or one of your own: `installtop serve`)")
        let machineOnly = DaemonError.noEngineFound(own: nil, machine: "/run/installtop.sock")
        #expect(throws: machineOnly) { try connect(nil, environment: [:], uid: 1000, listening: []) }
        #expect(machineOnly.description.hasPrefix(
            "no engine is serving on the machine's socket /run/installtop.sock, and XDG_RUNTIME_DIR is not set for one of your own"))
        #expect(throws: DaemonError.noEngineFound(own: "/run/user/0/installtop.sock", machine: "/run/installtop.sock")) {
            try connect(nil, environment: ["XDG_RUNTIME_DIR": "/run/user/0"], uid: 0, listening: [])
        }
    }

    @Test("--socket is used as given, alone; INSTALLTOP_MACHINE_SOCKET moves the machine's socket when it is absolute")
    func theOptionAndTheMachineSocket() throws {
        #expect(try connect("/tmp/x.sock", environment: [:], uid: 1000, listening: ["/tmp/x.sock", "/run/installtop.sock"])
            == ("/tmp/x.sock", ["/tmp/x.sock"]))
        #expect(throws: DaemonError.noEngine("/tmp/x.sock"), "no other place is tried") {
            try connect("/tmp/x.sock", environment: [:], uid: 1000, listening: ["/run/installtop.sock"])
        }
        let moved = ["INSTALLTOP_MACHINE_SOCKET": "/tmp/machine.sock"]
        #expect(SocketLocation.machinePath(environment: moved) == "/tmp/machine.sock")
        #expect(SocketLocation.machinePath(environment: ["INSTALLTOP_MACHINE_SOCKET": "relative.sock"]) == "/run/installtop.sock")
        #expect(try SocketLocation.defaultPath(environment: moved, uid: 0) == "/tmp/machine.sock", "root's engine serves there")
        #expect(try connect(nil, environment: moved, uid: 1000, listening: ["/tmp/machine.sock"]).connected == "/tmp/machine.sock")
    }

    @Test("a refusal for permissions names --watch-group: how to get a watch group, or how to join the engine's")
    func aRefusalNamesTheWatchGroup() {
        #expect(DaemonError.notAdmitted("/run/installtop.sock", SocketOwnership(owner: "root", group: nil)).description
            == "the engine at /run/installtop.sock admits only its owner (root); ask its operator to run `installtop serve --watch-group GROUP` with a group you are in")
        #expect(DaemonError.notAdmitted("/run/installtop.sock", SocketOwnership(owner: "root", group: "adm")).description
            == "the engine at /run/installtop.sock admits only its owner (root) and the members of group adm; ask its operator to add you to group adm, its `--watch-group` (a group you were just added to counts from your next login)")
        #expect(DaemonError.notAdmitted("/srv/e.sock", nil).description
            == "the engine at /srv/e.sock admits only its owner; ask its operator to run `installtop serve --watch-group GROUP` with a group you are in")
    }

    @Test func parent() {
        #expect(SocketLocation.parent(of: "/run/user/1/installtop.sock") == "/run/user/1")
        #expect(SocketLocation.parent(of: "/x.sock") == "/")
        #expect(SocketLocation.parent(of: "x.sock") == ".")
    }

    @Test func aPrivateDirectoryIsAccepted() throws {
        let directory = SocketDirectory(mode: 0o700)
        try SocketLocation.checkDirectory(of: directory.socket)
        let readable = SocketDirectory(mode: 0o755)
        try SocketLocation.checkDirectory(of: readable.socket)
    }

    @Test(arguments: [0o777 as mode_t, 0o770, 0o702, 0o1777])
    func aDirectoryOthersCanWriteIsRefused(mode: mode_t) {
        let directory = SocketDirectory(mode: mode)
        do {
            try SocketLocation.checkDirectory(of: directory.socket)
            Issue.record("mode \(String(mode, radix: 8)) was accepted")
        } catch {
            guard case .unsafeDirectory(let path, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == directory.path)
            #expect(reason.contains("others can write it (mode \(String(mode, radix: 8)))"), "\(reason)")
        }
    }

    @Test func aDirectoryOfAnotherUserIsRefused() throws {
        let directory = SocketDirectory(mode: 0o700)
        let me = geteuid()
        let other: uid_t
        if me == 0 {
            other = 65_534
            #expect(chown(directory.path, other, 65_534) == 0)
            defer { _ = chown(directory.path, 0, 0) }
            #expect(throws: DaemonError.unsafeDirectory(
                directory.path, reason: "it belongs to uid 65534, not to you (uid 0)")) {
                try SocketLocation.checkDirectory(of: directory.socket)
            }
        } else {
            // Without root the directory cannot be given away; ask as another uid instead.
            other = me + 1
            #expect(throws: DaemonError.unsafeDirectory(
                directory.path, reason: "it belongs to uid \(me), not to you (uid \(other))")) {
                try SocketLocation.checkDirectory(of: directory.socket, uid: other)
            }
        }
    }

    @Test func rootsDirectoriesAreTrusted() throws {
        // /run belongs to root: the engine of any user may use it (if it can write there).
        var info = stat()
        try #require(stat("/", &info) == 0 && info.st_uid == 0)
        try SocketLocation.checkDirectory(of: "/installtop.sock", uid: 4242)
    }

    @Test func aMissingDirectoryOrAFileIsRefused() throws {
        let directory = SocketDirectory()
        #expect(throws: DaemonError.unsafeDirectory(directory.file("missing"), reason: "No such file or directory")) {
            try SocketLocation.checkDirectory(of: directory.file("missing") + "/x.sock")
        }
        #expect(FileManager.default.createFile(atPath: directory.file("plain"), contents: Data()))
        #expect(throws: DaemonError.unsafeDirectory(directory.file("plain"), reason: "it is not a directory")) {
            try SocketLocation.checkDirectory(of: directory.file("plain") + "/x.sock")
        }
    }
}
