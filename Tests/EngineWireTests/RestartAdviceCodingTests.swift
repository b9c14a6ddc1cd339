import EngineWire
import RestartScan
import Testing

/// The JSON of a restart scan (rule 32): the contract's fields, and a round trip through the wire.
@Suite("restart advice coding")
struct RestartAdviceCodingTests {
    private let advice = RestartAdvice(
        processes: [
            StaleProcess(pid: 812, command: "nginx", uid: 33, user: "www-data", owner: .service(unit: "nginx.service"),
                         files: [StaleFile(path: "/usr/lib/libssl.so.3", change: .deleted), StaleFile(path: "/usr/lib/libc.so.6", change: .replaced)]),
            StaleProcess(pid: 900, command: "bash", uid: 1000, user: "ann", owner: .session(name: "session-4.scope"), files: [StaleFile(path: "/usr/bin/bash", change: .deleted)]),
            StaleProcess(pid: 901, command: "app", uid: 0, user: "root", owner: .container(name: "web01"), files: [StaleFile(path: "/app", change: .deleted)]),
            StaleProcess(pid: 902, command: "loose", uid: 0, user: "root", owner: .bare, files: [StaleFile(path: "/loose", change: .deleted)]),
        ],
        unreadable: [UnreadableProcess(pid: 7, command: "secret", reason: "Permission denied")],
        rebootReasons: [.newerKernel(running: "6.1.0-9-amd64", installed: "6.1.0-18-amd64"), .rebootRequiredFile(packages: ["libc6"])])

    private let otherRoots = RestartAdvice(
        processes: [
            StaleProcess(pid: 700, command: "nginx", uid: 0, user: "root", owner: .initScript(name: "nginx"), files: [StaleFile(path: "/usr/sbin/nginx", change: .deleted)]),
        ],
        otherRoots: [
            StaleProcess(pid: 812, command: "sshd", uid: 0, user: "root", owner: .service(unit: "ssh.service"),
                         files: [StaleFile(path: "/usr/lib/libc.so.6", change: .replaced)], root: "/"),
        ])

    @Test("field by field, in the contract's order")
    func encode() {
        let json = RestartAdviceCoding.encode(advice)

        #expect(json == #"{"restartNeeded":true,"rebootRequired":true,"rebootReasons":[{"reason":"kernel","running":"6.1.0-9-amd64","installed":"6.1.0-18-amd64"},{"reason":"reboot-required","packages":["libc6"]}],"services":["nginx.service"],"processes":[{"pid":812,"command":"nginx","user":"www-data","uid":33,"unit":"nginx.service","owner":"service","ownerName":"nginx.service","files":[{"path":"/usr/lib/libssl.so.3","change":"deleted"},{"path":"/usr/lib/libc.so.6","change":"replaced"}]},{"pid":900,"command":"bash","user":"ann","uid":1000,"unit":null,"owner":"session","ownerName":"session-4.scope","files":[{"path":"/usr/bin/bash","change":"deleted"}]},{"pid":901,"command":"app","user":"root","uid":0,"unit":null,"owner":"container","ownerName":"web01","files":[{"path":"/app","change":"deleted"}]},{"pid":902,"command":"loose","user":"root","uid":0,"unit":null,"owner":"process","ownerName":null,"files":[{"path":"/loose","change":"deleted"}]}],"unreadable":[{"pid":7,"command":"secret","reason":"Permission denied"}],"otherRoots":[],"complete":false,"unreadableProcesses":1,"failedRestarts":[]}"#)
    }

    @Test("an init script's service and the processes of other roots, each with its root")
    func encodeOtherRoots() {
        let json = RestartAdviceCoding.encode(otherRoots)

        #expect(json == #"{"restartNeeded":true,"rebootRequired":false,"rebootReasons":[],"services":["/etc/init.d/nginx"],"processes":[{"pid":700,"command":"nginx","user":"root","uid":0,"unit":null,"owner":"init-script","ownerName":"nginx","files":[{"path":"/usr/sbin/nginx","change":"deleted"}]}],"unreadable":[],"otherRoots":[{"pid":812,"command":"sshd","user":"root","uid":0,"unit":"ssh.service","owner":"service","ownerName":"ssh.service","files":[{"path":"/usr/lib/libc.so.6","change":"replaced"}],"root":"/"}],"complete":true,"unreadableProcesses":0,"failedRestarts":[]}"#)
    }

    @Test("a restart job's failed restarts: after the fields before them, in services, and restartNeeded with no process; decoded back")
    func failedRestarts() throws {
        let advice = RestartAdvice(failedRestarts: [FailedRestart(service: "nginx.service", reason: "restart exited 0, but `systemctl is-active nginx.service` says failed")])

        let json = RestartAdviceCoding.encode(advice)

        #expect(json == #"{"restartNeeded":true,"rebootRequired":false,"rebootReasons":[],"services":["nginx.service"],"processes":[],"unreadable":[],"otherRoots":[],"complete":true,"unreadableProcesses":0,"failedRestarts":[{"service":"nginx.service","reason":"restart exited 0, but `systemctl is-active nginx.service` says failed"}]}"#)
        let object = try #require(try JSONParser.parse(json).objectValue)
        #expect(try RestartAdviceCoding.decode(WireObject(object, context: "restarts")) == advice)
    }

    @Test("decoding gives back what was encoded")
    func roundTrip() throws {
        let object = try #require(try JSONParser.parse(RestartAdviceCoding.encode(advice)).objectValue)

        #expect(try RestartAdviceCoding.decode(WireObject(object, context: "restarts")) == advice)
        let other = try #require(try JSONParser.parse(RestartAdviceCoding.encode(otherRoots)).objectValue)
        #expect(try RestartAdviceCoding.decode(WireObject(other, context: "restarts")) == otherRoots)
    }

    @Test("a document of a version before otherRoots decodes with none")
    func withoutOtherRoots() throws {
        let text = #"{"rebootReasons":[],"processes":[],"unreadable":[]}"#
        let object = try #require(try JSONParser.parse(text).objectValue)

        #expect(try RestartAdviceCoding.decode(WireObject(object, context: "restarts")) == RestartAdvice())
    }

    @Test("a file change this version does not know is an error naming the member")
    func badChange() throws {
        let text = #"{"rebootReasons":[],"processes":[{"pid":1,"command":"a","user":"u","uid":0,"owner":"process","ownerName":null,"files":[{"path":"/a","change":"moved"}]}],"unreadable":[]}"#
        let object = try #require(try JSONParser.parse(text).objectValue)

        #expect(throws: WireError.self) { try RestartAdviceCoding.decode(WireObject(object, context: "restarts")) }
    }

    @Test("a scan root made says so on the wire, and its headline says why root could not read rather than 'run as root'")
    func scannedAsRoot() throws {
        var asRoot = advice
        asRoot.processes = []
        asRoot.rebootReasons = []
        asRoot.scannedAsRoot = true
        let json = RestartAdviceCoding.encode(asRoot)
        #expect(json.contains(#""unreadableProcesses":1,"scannedAsRoot":true,"#), "\(json)")
        let back = try RestartAdviceCoding.decode(WireObject(try #require(try JSONParser.parse(json).objectValue), context: "advice"))
        #expect(back.scannedAsRoot)
        #expect(back.headline == "Could not read 1 process (as root: Permission denied: a container, hidepid or a security module hides them); "
            + "none of the others runs deleted or replaced code; no reboot needed.")
        #expect(!RestartAdviceCoding.encode(advice).contains("scannedAsRoot"), "absent unless true")
    }
}
