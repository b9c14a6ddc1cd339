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

    @Test("root in an SSH session (XDG_RUNTIME_DIR set) finds the system service's socket")
    func clientFallsBackToTheSystemSocketForRoot() throws {
        let session = ["XDG_RUNTIME_DIR": "/run/user/0"]
        let onlySystem: (String) -> Bool = { $0 == "/run/installtop.sock" }
        #expect(try SocketLocation.resolveForClient(nil, environment: session, uid: 0, isSocket: onlySystem) == "/run/installtop.sock")
        #expect(try SocketLocation.resolveForClient(nil, environment: session, uid: 0, isSocket: { _ in true })
            == "/run/user/0/installtop.sock", "an engine of the session's own comes first")
        #expect(try SocketLocation.resolveForClient(nil, environment: session, uid: 0, isSocket: { _ in false })
            == "/run/user/0/installtop.sock", "with no engine anywhere the error names the default")
        #expect(try SocketLocation.resolveForClient(nil, environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000, isSocket: onlySystem)
            == "/run/user/1000/installtop.sock", "other users never connect to root's engine")
        #expect(try SocketLocation.resolveForClient("/tmp/x.sock", environment: session, uid: 0, isSocket: onlySystem) == "/tmp/x.sock")
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
