import Foundation
import RestartScan
import Testing

/// The owner read from `/proc/PID/cgroup`, on samples of real hosts (Samples/cgroup: the
/// `this-host` one recorded on the build machine, the others as those hosts write them).
@Suite("cgroup owner")
struct ProcessOwnerTests {
    private static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().path + "/Samples/cgroup/"

    private func owner(_ sample: String) throws -> ProcessOwner {
        ProcessOwner(cgroupFile: try String(contentsOfFile: Self.samples + sample, encoding: .utf8))
    }

    @Test("a system service on cgroup v2, also nested in a slice of its own")
    func services() throws {
        #expect(try owner("ubuntu2204-nginx.txt") == .service(unit: "nginx.service"))
        #expect(try owner("ubuntu2204-getty.txt") == .service(unit: "getty@tty1.service"))
        #expect(try owner("ubuntu2204-systemd.txt") == .service(unit: "init.scope"))
    }

    @Test("a service on a cgroup v1 host: the name=systemd line")
    func cgroupV1() throws {
        #expect(try owner("debian10-hybrid-cron.txt") == .service(unit: "cron.service"))
        #expect(try owner("centos7-sshd.txt") == .service(unit: "sshd.service"))
    }

    @Test("login sessions and the user manager are sessions, not services")
    func sessions() throws {
        #expect(try owner("ubuntu2204-ssh-session.txt") == .session(name: "session-4.scope"))
        #expect(try owner("ubuntu2204-user-app.txt") == .session(name: "user@1000.service"))
    }

    @Test("containers, even when the process inside is a service of the container's own systemd")
    func containers() throws {
        #expect(try owner("ubuntu2204-docker.txt") == .container(name: "3f1c9d0e8b7a6f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0f9e8d7c"))
        #expect(try owner("centos7-docker.txt") == .container(name: "5b8a1c2d3e4f"))
        #expect(try owner("lxd-container-nginx.txt") == .container(name: "web01"))
    }

    @Test("the root cgroup and an empty file make a bare process")
    func bare() throws {
        #expect(try owner("this-host-bare.txt") == .bare)
        #expect(ProcessOwner(cgroupFile: "") == .bare)
        #expect(ProcessOwner(cgroupFile: "garbage without colons") == .bare)
    }

    @Test("only a service has a unit to restart")
    func unit() {
        #expect(ProcessOwner.service(unit: "a.service").unit == "a.service")
        #expect(ProcessOwner.session(name: "session-1.scope").unit == nil)
        #expect(ProcessOwner.bare.unit == nil)
    }
}
