import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing

/// `enroll` and `hosts check` across namespace test hosts (Documentation/FLEET-FACTS.md), each
/// with its own sshd and private /run, reached from the controller namespace with the
/// operator's `ssh` and the fleet's ssh_config. No host may touch this machine's packages, so
/// each has a fresh private apt root (Documentation/PACKAGE-FACTS.md) that `--apt-config
/// /run/enroll/apt.conf` names: one path for every host, each host's /run holding its own
/// link to its own root. No systemd runs there, so `--engine-command` starts the root's
/// installtop as the host's engine on /run/installtop.sock (its private /run), where the unit's
/// would listen; the fleet's teardown ends it with the host's other processes.
@Suite("enroll over ssh: namespace hosts", .serialized,
       .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
struct EnrollOverSSHTests {
    @Test("hosts check says what a fresh root and one with an older installtop lack and names h3 unreachable; enroll installs the package with its dependency, starts the engine, installs the hooks on h1 and h2 while h3 is named unreachable and h4's apt, which cannot resolve the dependency, is quoted with the fix; hosts check then finds h1 and h2 ready; enrolling again says already and copies nothing")
    func enrollTwoFreshRoots() async throws {
        let machineBefore = HostPackageFingerprint()
        let fleet = try FleetTestHosts(count: 4)
        defer { fleet.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let binary = try InstalltopBinary.path()
        let package = try EnrollTestPackage(installtop: binary, depends: "lab-enroll-dep", in: folder)
        var roots: [APTTestRoot] = []
        for host in 1...4 {
            let root = try APTTestRoot(folder: folder.file("root-h\(host)"))
            // h4's sources lack the package installtop depends on.
            try root.publish(host == 4 ? [TestPackage(name: "lab-unrelated", version: "1.0")] : [TestPackage(name: "lab-enroll-dep", version: "1.0")])
            if host == 2 {
                // h2 has an older installtop, which enroll upgrades.
                let older = TestPackage(name: "installtop", version: "0.1.0", postinst: #"chmod 755 "$DPKG_ROOT/usr/bin/installtop""#,
                                        files: ["/usr/bin/installtop": "#!/bin/sh\ncase $1 in --version) echo 0.1.0 ;; *) echo \"installtop 0.1.0: no $1\" >&2; exit 2 ;; esac\n"])
                try root.publish([TestPackage(name: "lab-enroll-dep", version: "1.0"), older])
                try root.aptGet(["install", "-y", "installtop"], check: true)
            }
            roots.append(root)
            // The fleet's sshd gives sessions TMPDIR=/run/ansible-tmp, which ansible makes when it
            // needs it: made here, so that the copied .deb stays in the host's private /run.
            let linked = try fleet.run(onHost: host, """
                mkdir -p /run/enroll /run/ansible-tmp && ln -s '\(root.configuration)' /run/enroll/apt.conf && ln -s '\(root.root)' /run/enroll/root
                """)
            #expect(linked.status == 0, "h\(host): \(linked.stderr)")
        }
        try fleet.stopSSHD(host: 3)
        let installed = "/run/enroll/root/usr/bin/installtop"
        let reaching = ["--ssh-config", fleet.sshConfigPath, "--apt-config", "/run/enroll/apt.conf", "--remote-command", "\(installed) bridge"]
        let enrolling = ["--package", package.path, "--parallel", "2", "--engine-command",
                         "setsid \(installed) serve --apt-config /run/enroll/apt.conf --no-history --socket /run/installtop.sock </dev/null >/run/enroll/serve.log 2>&1 &"]

        let before = try await installtop(fleet, folder, [binary, "hosts", "check", "--json", "--host", "h1", "--host", "h2", "--host", "h3"] + reaching)
        #expect(before.status == 1, "\(before.stdout)\(before.stderr)")
        let lacking = try hosts(before)
        #expect(lacking.map { $0["host"] as? String } == ["h1", "h2", "h3"])
        #expect(lacking[0]["installtop"] is NSNull && lacking[1]["installtop"] as? String == "0.1.0", "\(lacking)")
        let older = (lacking[1]["problems"] as? [[String: Any]])?.first?["text"] as? String
        #expect(older == "installtop 0.1.0, where this machine has \(package.version.replacingOccurrences(of: "-", with: "~"))", "\(lacking[1])")
        for host in lacking.prefix(2) {
            #expect(host["reachable"] as? Bool == true && host["ready"] as? Bool == false, "\(host)")
            #expect(host["engine"] as? Bool == false && host["hooks"] as? Bool == false, "\(host)")
            let problems = try #require(host["problems"] as? [[String: Any]], "\(host)")
            #expect(problems.map { $0["subject"] as? String } == ["installtop", "engine", "hooks"], "\(problems)")
            #expect(problems.allSatisfy { ($0["fix"] as? String)?.contains("installtop enroll --host \(host["host"] as? String ?? "")") == true }, "\(problems)")
        }
        #expect(lacking[2]["reachable"] as? Bool == false)
        #expect((lacking[2]["error"] as? String)?.hasPrefix("ssh: connect to host 10.77.0.13 port 22: ") == true, "\(lacking[2])")

        let enrolled = try await installtop(fleet, folder, [binary, "enroll", "--host", "h1", "--host", "h2", "--host", "h3", "--host", "h4"] + reaching + enrolling)
        #expect(enrolled.status == 1, "\(enrolled.stdout)\(enrolled.stderr)")
        let debianVersion = package.version.replacingOccurrences(of: "-", with: "~")
        for host in ["h1", "h2"] {
            for line in ["\(host): package: copying \(URL(fileURLWithPath: package.path).lastPathComponent), ",
                         "\(host): package: done: installtop \(debianVersion) installed\n",
                         "\(host): engine: done: answering on /run/installtop.sock\n",
                         "\(host): hooks: done: installed\n",
                         "\(host): link: done: `\(installed) bridge` over ssh reaches the engine (pid ",
                         "\(host): enrolled (package, engine, hooks)\n"] {
                #expect(enrolled.stdout.contains(line), "no \(line) in:\n\(enrolled.stdout)")
            }
        }
        #expect(enrolled.stdout.contains(" (it has 0.1.0, dpkg says ii)\n"), "h2's older installtop is named:\n\(enrolled.stdout)")
        #expect(enrolled.stdout.contains("h3: unreachable: ssh: connect to host 10.77.0.13 port 22: "), "\(enrolled.stdout)")
        let deb = URL(fileURLWithPath: package.path).lastPathComponent
        #expect(enrolled.stdout.contains("h4: package: failed: apt-get install ./\(deb) failed\n"), "\(enrolled.stdout)")
        let words = enrolled.stdout.split(separator: "\n").filter { $0.hasPrefix("h4:     ") && !$0.hasPrefix("h4:     fix: ") }
        #expect(words.contains { $0.contains("Depends: lab-enroll-dep but it is not installable") }, "apt's own words:\n\(enrolled.stdout)")
        #expect(enrolled.stdout.contains("h4:     fix: fix what apt names on h4 ("), "\(enrolled.stdout)")
        #expect(enrolled.stdout.contains("h4: failed at package: apt-get install ./\(deb) failed\n"), "\(enrolled.stdout)")
        #expect(!enrolled.stdout.contains("h4: engine:") && !enrolled.stdout.contains("h4: hooks:"), "h4's later steps are not tried:\n\(enrolled.stdout)")
        #expect(enrolled.stdout.hasSuffix("4 hosts: 2 enrolled, 0 already, 1 failed, 1 unreachable\n"), "\(enrolled.stdout)")
        for (index, root) in roots.prefix(2).enumerated() {
            let states = try root.states()
            #expect(states["installtop"]?.status == "ii" && states["installtop"]?.version == debianVersion, "h\(index + 1): \(states)")
            #expect(states["lab-enroll-dep"]?.status == "ii", "apt resolved the Depends on h\(index + 1): \(states)")
            #expect(FileManager.default.fileExists(atPath: root.root + "/etc/apt/apt.conf.d/99installtop-observe"), "h\(index + 1)'s hooks")
            #expect(try root.audit().isEmpty)
        }
        #expect(try roots[2].states().isEmpty, "the unreachable h3 got nothing")
        let h4 = try roots[3].states()
        #expect(h4["installtop"] == nil, "h4 has no installtop: \(h4)")
        #expect(try roots[3].audit().isEmpty)

        let after = try await installtop(fleet, folder, [binary, "hosts", "check", "--host", "h1", "--host", "h2"] + reaching)
        #expect(after.status == 0, "\(after.stdout)\(after.stderr)")
        #expect(after.stdout == """
            h1: ready: installtop \(package.version), engine answering on /run/installtop.sock, hooks installed
            h2: ready: installtop \(package.version), engine answering on /run/installtop.sock, hooks installed
            2 hosts: 2 ready, 0 lacking something, 0 unreachable

            """)
        let afterJSON = try await installtop(fleet, folder, [binary, "hosts", "check", "--json", "--host", "h1", "--host", "h2"] + reaching)
        #expect(afterJSON.status == 0, "\(afterJSON.stdout)\(afterJSON.stderr)")
        for host in try hosts(afterJSON) {
            #expect(host["ready"] as? Bool == true && host["installtop"] as? String == package.version, "\(host)")
            #expect((host["problems"] as? [Any])?.isEmpty == true, "\(host)")
        }

        let again = try await installtop(fleet, folder, [binary, "enroll", "--host", "h1", "--host", "h2"] + reaching + enrolling)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        for host in ["h1", "h2"] {
            for line in ["\(host): package: already: installtop \(debianVersion) installed\n",
                         "\(host): engine: already: an engine answers on /run/installtop.sock\n",
                         "\(host): hooks: already: installed\n",
                         "\(host): already enrolled\n"] {
                #expect(again.stdout.contains(line), "no \(line) in:\n\(again.stdout)")
            }
        }
        #expect(!again.stdout.contains("copying"), "nothing is copied to an enrolled host:\n\(again.stdout)")
        #expect(again.stdout.hasSuffix("2 hosts: 0 enrolled, 2 already, 0 failed, 0 unreachable\n"), "\(again.stdout)")
        for host in 1...2 {
            let engines = try fleet.run(onHost: host, "cat /run/enroll/serve.log").stdout
            #expect(engines.components(separatedBy: "serving on /run/installtop.sock").count == 2, "h\(host) started one engine:\n\(engines)")
        }
        #expect(HostPackageFingerprint().changes(since: machineBefore).isEmpty, "this machine's packages are as they were")
    }

    @Test("with systemd (a stand-in systemctl in the host's own mount namespace), hosts check names installtop.service disabled and inactive, enroll runs systemctl enable --now installtop.service from the package's unit, and again says already; after the package is installed again under it, hosts check names the engine running the replaced installtop and enroll restarts it")
    func enrollEnablesTheUnit() async throws {
        let fleet = try FleetTestHosts(count: 1)
        defer { fleet.tearDown() }
        let folder = try TestFolder()
        defer { folder.remove() }
        let binary = try InstalltopBinary.path()
        let package = try EnrollTestPackage(installtop: binary, depends: "lab-enroll-dep", in: folder)
        let root = try APTTestRoot(folder: folder.file("root-h1"))
        try root.publish([TestPackage(name: "lab-enroll-dep", version: "1.0")])
        // systemctl as systemd would answer for the unit the package installed into the root
        // (refusing when dpkg put none there), its engine the root's installtop on the host's
        // /run/installtop.sock. It goes on a tmpfs over /usr/local/bin in h1's mount namespace
        // alone (ip netns exec makes the host's mounts slaves: nothing reaches this machine's),
        // first on the PATH sshd gives sessions; /run/systemd/system says systemd runs.
        let systemctl = try folder.script("systemctl", #"""
            state=/run/fake-systemd
            mkdir -p "$state"
            unit=$(printf '%s\n' "$@" | grep '\.service$' | tail -n 1)
            start() {
                setsid /run/enroll/root/usr/bin/installtop serve --socket /run/installtop.sock --apt-config /run/enroll/apt.conf \
                    --no-history </dev/null >>/run/enroll/serve.log 2>&1 &
                echo $! > "$state/$unit.pid"
            }
            case "$1" in
            is-enabled) if [ -e "$state/$unit.enabled" ]; then echo enabled; else echo disabled; exit 1; fi ;;
            is-active) if [ -e "$state/$unit.pid" ] && kill -0 "$(cat "$state/$unit.pid")" 2>/dev/null; then echo active; else echo inactive; exit 3; fi ;;
            show) if [ -e "$state/$unit.pid" ]; then cat "$state/$unit.pid"; else echo 0; fi ;;
            enable)
                [ -f /run/enroll/root/lib/systemd/system/"$unit" ] || { echo "Failed to enable unit: Unit file $unit does not exist." >&2; exit 1; }
                : > "$state/$unit.enabled"
                echo "Created symlink /etc/systemd/system/multi-user.target.wants/$unit → /lib/systemd/system/$unit." >&2
                start ;;
            restart)
                pid=$(cat "$state/$unit.pid")
                kill "$pid"
                tries=0
                while kill -0 "$pid" 2>/dev/null; do
                    tries=$((tries + 1))
                    [ "$tries" -lt 600 ] || { echo "Job for $unit failed: it did not stop." >&2; exit 1; }
                    sleep 0.1
                done
                start ;;
            *) echo "systemctl stand-in: $*" >&2; exit 1 ;;
            esac
            """#)
        let prepared = try fleet.run(onHost: 1, """
            mkdir -p /run/enroll /run/ansible-tmp /run/systemd/system && ln -s '\(root.configuration)' /run/enroll/apt.conf && \
            ln -s '\(root.root)' /run/enroll/root && mount -t tmpfs enroll-bin /usr/local/bin && cp '\(systemctl)' /usr/local/bin/systemctl
            """)
        #expect(prepared.status == 0, "\(prepared.stderr)")
        let installed = "/run/enroll/root/usr/bin/installtop"
        let reaching = ["--host", "h1", "--ssh-config", fleet.sshConfigPath, "--apt-config", "/run/enroll/apt.conf", "--remote-command", "\(installed) bridge"]

        let before = try await installtop(fleet, folder, [binary, "hosts", "check"] + reaching)
        #expect(before.status == 1)
        #expect(before.stdout.contains("h1: engine: no engine answers on /run/installtop.sock: installtop.service is disabled and inactive ("),
                "\(before.stdout)\(before.stderr)")
        // The fix works as printed: it carries the options that reached the host.
        #expect(before.stdout.contains("    fix: systemctl enable --now installtop.service on h1, or installtop enroll --host h1 --ssh-config \(fleet.sshConfigPath) "
            + "--remote-command '\(installed) bridge' --apt-config /run/enroll/apt.conf\n"), "\(before.stdout)")

        let enrolled = try await installtop(fleet, folder, [binary, "enroll", "--package", package.path] + reaching)
        #expect(enrolled.status == 0, "\(enrolled.stdout)\(enrolled.stderr)")
        #expect(enrolled.stdout.contains("h1: engine: systemctl enable --now installtop.service\nh1: engine: done: answering on /run/installtop.sock\n"),
                "\(enrolled.stdout)")
        #expect(enrolled.stdout.contains("h1: enrolled (package, engine, hooks)\n"), "\(enrolled.stdout)")

        let again = try await installtop(fleet, folder, [binary, "enroll", "--package", package.path] + reaching)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("h1: engine: already: installtop.service enabled and active, answering on /run/installtop.sock\n"), "\(again.stdout)")
        #expect(again.stdout.contains("h1: already enrolled\n"), "\(again.stdout)")
        let after = try await installtop(fleet, folder, [binary, "hosts", "check"] + reaching)
        #expect(after.status == 0, "\(after.stdout)\(after.stderr)")

        // The package installed again under the running engine (as an upgrade does): the
        // engine runs the installtop dpkg replaced, until enroll restarts it.
        try root.aptGet(["install", "-y", "--reinstall", package.path], check: true)
        let replaced = try await installtop(fleet, folder, [binary, "hosts", "check"] + reaching)
        #expect(replaced.status == 1)
        #expect(replaced.stdout.contains("h1: engine: installtop.service runs the installtop the package replaced (pid "), "\(replaced.stdout)")
        let restarted = try await installtop(fleet, folder, [binary, "enroll", "--package", package.path] + reaching)
        #expect(restarted.status == 0, "\(restarted.stdout)\(restarted.stderr)")
        #expect(restarted.stdout.contains("""
            h1: engine: systemctl restart installtop.service (it ran the installtop the package replaced)
            h1: engine: done: answering on /run/installtop.sock

            """), "\(restarted.stdout)")
        #expect(restarted.stdout.contains("h1: enrolled (engine)\n"), "\(restarted.stdout)")
        let current = try await installtop(fleet, folder, [binary, "hosts", "check"] + reaching)
        #expect(current.status == 0, "\(current.stdout)\(current.stderr)")
    }

    /// The `hosts` of a `hosts check --json` document.
    private func hosts(_ result: RunResult) throws -> [[String: Any]] {
        let document = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(document?["hosts"] as? [[String: Any]], "\(result.stdout)\(result.stderr)")
    }

    /// Runs `arguments` (the installtop under test first) in the controller namespace, where
    /// the fleet's addresses are reachable, and waits for it.
    private func installtop(_ fleet: FleetTestHosts, _ folder: TestFolder, _ arguments: [String]) async throws -> RunResult {
        let command = fleet.controllerCommand(arguments)
        return try await InstalltopProcess(Array(command.dropFirst()), in: folder, executable: command[0]).finish(timeout: .seconds(600))
    }
}
