import Testing
import TerminalUI
@testable import installtop

/// What `enroll` and `hosts check` make of what a host's script said, on values: its report
/// lines, the facts of its probe, what a host lacks with each fix, and the summary.
@Suite("enroll and hosts check: report lines, findings and the summary")
struct HostSetupReportTests {
    private let expected = ExpectedVersion(installtop: "0.2.0")
    private let sanitizer = TextSanitizer(mode: .unicode)

    @Test("report lines: steps with their text, facts with their value, words whole, anything else apart")
    func reportLines() {
        #expect(HostReportLine("installtop-enroll: step package done installtop 0.2.0 installed") == .step(.package, .done, text: "installtop 0.2.0 installed"))
        #expect(HostReportLine("installtop-enroll: step hooks already installed") == .step(.hooks, .already, text: "installed"))
        #expect(HostReportLine("installtop-enroll: fact package ii 0.2.0") == .fact(key: "package", value: "ii 0.2.0"))
        #expect(HostReportLine("installtop-enroll: fact engine no installtop: no engine is serving on /run/installtop.sock")
            == .fact(key: "engine", value: "no installtop: no engine is serving on /run/installtop.sock"))
        #expect(HostReportLine("installtop-enroll: words E:  Unable to locate package  x") == .words("E:  Unable to locate package  x"))
        #expect(HostReportLine("installtop-enroll: end") == .end)
        #expect(HostReportLine("installtop-enroll: step reboot done now") == .other("installtop-enroll: step reboot done now"))
        #expect(HostReportLine("Reading package lists...") == .other("Reading package lists..."))
    }

    @Test("a Debian version is installtop's with a hyphen as ~ and what Debian does not allow as +")
    func debianVersion() {
        #expect(ExpectedVersion(installtop: "0.2.0").debian == "0.2.0")
        #expect(ExpectedVersion(installtop: "0.3.0-rc1").debian == "0.3.0~rc1")
        #expect(ExpectedVersion(installtop: "1.0_beta").debian == "1.0+beta")
    }

    @Test("a fresh host lacks installtop, its engine and the hooks, each fixed by enroll; a ready host lacks nothing")
    func freshAndReady() {
        let fresh = HostFacts(facts: [("apt", "ok"), ("package", "none"), ("binary", "none"), ("unit", "none"),
                                      ("engine", "no /usr/bin/installtop is not there"), ("hooks", "no")])
        let found = HostCheck.findings(host: "web1", facts: fresh, expected: expected, bridge: "installtop bridge", link: nil)
        #expect(found.map(\.subject) == ["installtop", "engine", "hooks"])
        #expect(found.allSatisfy { $0.fix.contains("installtop enroll --host web1") }, "\(found)")
        #expect(found[1].text == "no engine answers on /run/installtop.sock (/usr/bin/installtop is not there)")
        let ready = HostFacts(facts: [("apt", "ok"), ("package", "ii 0.2.0"), ("binary", "0.2.0"), ("unit", "enabled active"),
                                      ("engine", "yes"), ("hooks", "yes")])
        #expect(ready.hasInstalled(expected))
        #expect(HostCheck.findings(host: "web1", facts: ready, expected: expected, bridge: "installtop bridge", link: nil).isEmpty)
    }

    @Test("another version, a package left half-way, a disabled unit and a failing link are each named with their fix")
    func differences() {
        let older = HostFacts(facts: [("apt", "ok"), ("package", "ii 0.1.0"), ("binary", "0.1.0"), ("unit", "disabled inactive"),
                                      ("engine", "no installtop: no engine is serving on /run/installtop.sock"), ("hooks", "yes")])
        let found = HostCheck.findings(host: "db1", facts: older, expected: expected, bridge: "installtop bridge", link: nil)
        #expect(found.map(\.text) == [
            "installtop 0.1.0, where this machine has 0.2.0",
            "no engine answers on /run/installtop.sock: installtop.service is disabled and inactive (installtop: no engine is serving on /run/installtop.sock)",
        ])
        #expect(found[1].fix == "systemctl enable --now installtop.service on db1, or installtop enroll --host db1")
        #expect(!older.hasInstalled(expected))
        let halfWay = HostFacts(facts: [("apt", "ok"), ("package", "iU 0.2.0"), ("binary", "0.2.0"), ("engine", "yes"), ("hooks", "yes")])
        #expect(HostCheck.findings(host: "db1", facts: halfWay, expected: expected, bridge: "b", link: nil).map(\.text)
            == ["installtop 0.2.0 is not fully installed (dpkg says iU)"])
        let keptOut = HostFacts(facts: [("apt", "ok"), ("package", "ii 0.2.0"), ("binary", "0.2.0"), ("unit", "none"),
                                        ("engine", "refuses installtop: the engine at /run/installtop.sock admits only its owner (root)"), ("hooks", "yes")])
        #expect(HostCheck.findings(host: "db1", facts: keptOut, expected: expected, bridge: "b", link: nil).map(\.text)
            == ["an engine runs on /run/installtop.sock but does not admit the user the check ran as (installtop: the engine at /run/installtop.sock admits only its owner (root))"])
        let removed = HostFacts(facts: [("apt", "ok"), ("package", "rc 0.2.0"), ("binary", "none"), ("engine", "no x"), ("hooks", "no")])
        #expect(HostCheck.findings(host: "db1", facts: removed, expected: expected, bridge: "b", link: nil).first?.text
            == "installtop 0.2.0 was removed (dpkg says rc: its configuration is left)")
        let watched = HostFacts(facts: [("apt", "ok"), ("package", "ii 0.2.0"), ("binary", "0.2.0"), ("engine", "yes"), ("hooks", "yes")])
        let link = HostCheck.findings(host: "db1", facts: watched, expected: expected, bridge: "installtop bridge",
                                      link: "the engine at /run/installtop.sock admits only its owner (root)")
        #expect(link.map(\.subject) == ["link"])
        #expect(link.first?.fix.contains("--remote-command 'sudo -n installtop bridge'") == true)
    }

    @Test("apt that cannot read its configuration is the one finding, in apt's words")
    func aptProblem() {
        let broken = HostFacts(facts: [("apt", "E: Syntax error /etc/apt/apt.conf.d/99x:1")])
        #expect(HostCheck.findings(host: "h", facts: broken, expected: expected, bridge: "b", link: nil).map(\.text)
            == ["apt cannot read its configuration: E: Syntax error /etc/apt/apt.conf.d/99x:1"])
    }

    @Test("the summary says each host's end and the counts")
    func summary() {
        let text = EnrollCommand.summary([
            ("h1", .enrolled(changed: [.package, .engine, .hooks])),
            ("h2", .enrolled(changed: [])),
            ("h3", .failed(step: .package, text: "apt-get install ./installtop_0.2.0_amd64.deb failed", words: ["E: x"], fix: "f")),
            ("h4", .unreachable(reason: "ssh: connect to host h4 port 22: Connection refused")),
        ], sanitizer: sanitizer)
        #expect(text == """
            summary:
            h1: enrolled (package, engine, hooks)
            h2: already enrolled
            h3: failed at package: apt-get install ./installtop_0.2.0_amd64.deb failed
            h4: unreachable: ssh: connect to host h4 port 22: Connection refused
            4 hosts: 1 enrolled, 1 already, 1 failed, 1 unreachable

            """)
    }

    @Test("hosts check's text: ready, each finding with its fix, unreachable, then the counts")
    func checkText() {
        let ready = HostFacts(facts: [("apt", "ok"), ("package", "ii 0.2.0"), ("binary", "0.2.0"), ("engine", "yes"), ("hooks", "yes")])
        let text = HostsCheckReport.text([
            .checked(host: "h1", facts: ready, findings: []),
            .checked(host: "h2", facts: ready, findings: [HostFinding(subject: "hooks", text: "no hooks", fix: "installtop enroll --host h2")]),
            .unreachable(host: "h3", reason: "ssh: Could not resolve hostname h3"),
        ], sanitizer: sanitizer)
        #expect(text == """
            h1: ready: installtop 0.2.0, engine answering on /run/installtop.sock, hooks installed
            h2: hooks: no hooks
                fix: installtop enroll --host h2
            h3: unreachable: ssh: Could not resolve hostname h3
                fix: make `ssh h3` log in without a prompt (keys, known_hosts: BatchMode=yes)
            3 hosts: 1 ready, 1 lacking something, 1 unreachable

            """)
    }

    @Test("a fix names enroll with the options that reach and set up the host, quoted for sh, so it works as printed")
    func enrollCommandCarriesTheOptions() throws {
        let reaching = try HostsOptions.parse(["--host", "h1", "--ssh-config", "/work/trial/ssh/config", "--ssh-option", "Port=2211",
                                               "--remote-command", "sudo -n installtop bridge"])
        let setup = try HostSetupOptions.parse(["--sudo", "--apt-config", "/srv/it's/apt.conf"])
        #expect(EnrollCommandLine(reaching: reaching, setup: setup).command(forHost: "h1")
            == "installtop enroll --host h1 --ssh-config /work/trial/ssh/config --ssh-option Port=2211 --remote-command 'sudo -n installtop bridge' --sudo --apt-config '/srv/it'\\''s/apt.conf'")
        let plain = EnrollCommandLine(reaching: try HostsOptions.parse(["--host", "web1"]), setup: try HostSetupOptions.parse([]))
        #expect(plain.command(forHost: "web1") == "installtop enroll --host web1")
        let fresh = HostFacts(facts: [("apt", "ok"), ("package", "none"), ("binary", "none"), ("unit", "none"),
                                      ("engine", "no /usr/bin/installtop is not there"), ("hooks", "no")])
        let found = HostCheck.findings(host: "h1", facts: fresh, expected: expected, bridge: "installtop bridge", link: nil,
                                       enroll: EnrollCommandLine(reaching: reaching, setup: setup).command(forHost: "h1"))
        #expect(found.allSatisfy { $0.fix.contains("--ssh-config /work/trial/ssh/config") }, "\(found.map(\.fix))")
    }

    @Test("without --package, enroll looks in the checkout's .build/deb also when the binary's path is the resolved triple folder")
    func packageFolders() {
        let folders = EnrollPackage.searchedFolders(executable: "/work/trial/src/.build/x86_64-unknown-linux-gnu/release/installtop")
        #expect(folders.contains("/work/trial/src/.build/deb"), "\(folders)")
        #expect(folders.contains("/work/trial/src/.build/x86_64-unknown-linux-gnu/deb"))
        #expect(folders.last == "/var/cache/apt/archives")
    }
}
