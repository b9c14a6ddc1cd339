import InstallEngine
@testable import PatchPolicy
import Testing
import TextBasics

/// Reading a policy: every setting of a good one, and each kind of mistake reported at its
/// line and column.
@Suite("Policy: reading the file")
struct PolicyLoaderTests {
    static let inventory = """
        [canary]
        web1
        [web]
        web[1:6]
        [db]
        db[1:4]
        """

    static let good = """
        hosts:
          inventory: hosts.ini
          groups: [web, db]
        time_zone: Europe/Berlin
        windows:
          - days: [tue, thu]
            start: "02:00"
            duration: 3h
          - days: daily
            start: 23:30
            duration: 1h30m
        blackouts: [2026-12-24, 2026-12-28..2027-01-01]
        waves:
          canary: [web1]
          percent: 34
          at_once: 2
        gate:
          confirm: 15m
          command: [./check-site, --all]
        failure_budget: 2
        age:
          updates: 7d
          security: 1d
        packages: all
        commands:
          before: "lb-drain $INSTALLTOP_HOST"
          after: [installtop-test-lb-enable]
        reboot:
          at_once: 1
        notify: [./patch-notify]
        """

    /// Loads `policy` beside the inventory; the errors' texts when it is invalid.
    static func load(_ policy: String) throws -> Result<PatchPolicy, ManifestErrors> {
        let folder = try PolicyFolder()
        defer { folder.remove() }
        try folder.write("hosts.ini", inventory)
        try folder.write("night.yaml", policy)
        try folder.write("check-site", "#!/bin/sh\n", executable: true)
        try folder.write("patch-notify", "#!/bin/sh\n", executable: true)
        do {
            return .success(try PolicyLoader.load(contentsOfFile: folder.file("night.yaml"), zones: TestZones.lookup))
        } catch {
            return .failure(error)
        }
    }

    /// The errors of `policy` as `LINE:COLUMN: message`, without the folder.
    static func errors(_ policy: String) throws -> [String] {
        guard case .failure(let errors) = try load(policy) else { return [] }
        return errors.errors.map { "\($0.line):\($0.column): \($0.message)" }
    }

    @Test("A good policy: hosts of its groups, windows, blackouts, waves, gate, budget, ages, packages, commands, reboots, notify")
    func goodPolicy() throws {
        let policy = try Self.load(Self.good).get()
        #expect(policy.hosts.names == (1...6).map { "web\($0)" } + (1...4).map { "db\($0)" })
        #expect(policy.zone.name == "Europe/Berlin")
        #expect(policy.windows == [PatchWindow(days: [.tuesday, .thursday], startMinute: 120, duration: 3 * 3600),
                                   PatchWindow(days: Set(Weekday.allCases), startMinute: 23 * 60 + 30, duration: 5400)])
        #expect(policy.blackouts.map(\.description) == ["2026-12-24", "2026-12-28..2027-01-01"])
        #expect(policy.hostWaves.map(\.hosts.count) == [1, 4, 5])
        #expect(policy.waves.atOnce == 2)
        #expect(policy.gate == WaveGate(confirm: 900, command: .argv(["./check-site", "--all"])))
        #expect(policy.failureBudget == .hosts(2))
        #expect(policy.age == AgeGate(updates: 7 * 86_400, security: 86_400))
        #expect(policy.packages == .all)
        #expect(policy.hostCommands == HostCommands(before: .shell("lb-drain $INSTALLTOP_HOST"), after: .argv(["installtop-test-lb-enable"])))
        #expect(policy.reboot == RebootSettings(enabled: true, atOnce: 1))
        #expect(policy.notify == .argv(["./patch-notify"]))
        // A name not on PATH now may be there when the night runs: a warning, not an error.
        #expect(policy.warnings.map { "\($0.line):\($0.column): \($0.message)" } == [
            "27:11: warning: `installtop-test-lb-enable` is not an executable on PATH now; the command fails unless it is there when the night runs",
        ])
    }

    @Test("A command's program given as a path must be an executable file, relative to the policy's folder, as in manifests")
    func commandPrograms() throws {
        let errors = try Self.errors(Self.good.replacing("[./check-site, --all]", with: "[./no-such-check]"))
        #expect(errors.count == 1 && errors[0].hasPrefix("19:13: `./no-such-check` does not exist ("), "\(errors)")
    }

    @Test("What a short policy leaves out: every host, one wave, budget 0, no age, security updates only, one reboot at a time")
    func defaults() throws {
        let policy = try Self.load("""
            hosts: {inventory: hosts.ini}
            time_zone: UTC
            windows: [{days: [sun], start: "04:00", duration: 2h}]
            gate: {confirm: 10m}
            """).get()
        #expect(policy.hosts.names.count == 10)
        #expect(policy.hostWaves.count == 1)
        #expect(policy.failureBudget == .hosts(0))
        #expect(policy.age == AgeGate())
        #expect(policy.packages == .security)
        #expect(policy.reboot == RebootSettings(enabled: true, atOnce: 1, command: "systemctl reboot", timeout: 600))
        #expect(policy.notify == nil)
    }

    @Test("reboot: its command is a command line for the host's shell (never looked up here) and its timeout a duration; an empty command, a timeout of 0 or no duration are errors at their place")
    func rebootCommandAndTimeout() throws {
        let base = """
            hosts: {inventory: hosts.ini}
            time_zone: UTC
            windows: [{days: [sun], start: "04:00", duration: 2h}]
            gate: {confirm: 10m}

            """
        let policy = try Self.load(base + "reboot: {at_once: 2, command: \"/sbin/shutdown -r now\", timeout: 20m}").get()
        #expect(policy.reboot == RebootSettings(enabled: true, atOnce: 2, command: "/sbin/shutdown -r now", timeout: 1200))
        let errors = try Self.errors(base + "reboot:\n  command: \" \"\n  timeout: 0s\nnotify: [./patch-notify]\n")
        #expect(errors == ["6:12: expected the command line that reboots a host (such as systemctl reboot); got ` `",
                           "7:12: expected a time longer than 0 for a rebooted host to answer again; got `0s`"], "\(errors)")
        #expect(try Self.errors(base + "reboot: {timeout: soon}") == ["5:19: expected a duration such as 30s, 15m, 2h or 7d; got `soon`"])
    }

    @Test("A YAML inventory: a group's children's hosts are its hosts, in inventory order")
    func yamlInventory() throws {
        let folder = try PolicyFolder()
        defer { folder.remove() }
        try folder.write("hosts.yml", """
            all:
              children:
                prod:
                  children:
                    web: {hosts: {web1: {}, web2: {}}}
                    db: {hosts: {db1: {ansible_port: 2222}}}
                lab:
                  hosts: {lab1: {}}
            """)
        try folder.write("night.yaml", """
            hosts: {inventory: hosts.yml, groups: [prod]}
            time_zone: UTC
            windows: [{days: daily, start: "03:00", duration: 1h}]
            gate: {confirm: 5m}
            """)
        let policy = try PolicyLoader.load(contentsOfFile: folder.file("night.yaml"), zones: TestZones.lookup)
        #expect(policy.hosts.names == ["web1", "web2", "db1"])
    }

    @Test("`daily` in a list of days (`[daily]`, as a user writes it after `[tue, thu]`) is every day")
    func dailyInAList() throws {
        for days in ["[daily]", "[daily, mon]"] {
            let policy = try Self.load(Self.good.replacing("  - days: daily", with: "  - days: \(days)")).get()
            #expect(policy.windows.last?.days == Set(Weekday.allCases), "\(days)")
        }
    }

    @Test("An unknown key names the keys of its section and the nearest one")
    func unknownKey() throws {
        let errors = try Self.errors(Self.good.replacing("failure_budget: 2", with: "failure_budjet: 2"))
        #expect(errors == ["20:1: unknown key `failure_budjet` at the top level; expected one of: hosts, time_zone, windows, blackouts, waves, "
            + "gate, failure_budget, age, packages, commands, reboot, notify; did you mean `failure_budget`?"])
        let nested = try Self.errors(Self.good.replacing("  confirm: 15m", with: "  confirn: 15m"))
        #expect(nested.contains("18:3: unknown key `confirn` in gate; expected one of: confirm, command; did you mean `confirm`?"), "\(nested)")
        // A missing key is reported where its mapping starts, as manifests report it.
        #expect(nested.contains("18:3: missing key `confirm` in gate"), "\(nested)")
    }

    @Test("Each bad value at its own line and column, all of them at once")
    func badValues() throws {
        let errors = try Self.errors("""
            hosts:
              inventory: hosts.ini
              groups: [web, dbs]
            time_zone: Europe/Berlinn
            windows:
              - days: [tue, thursday, someday]
                start: "25:00"
                duration: 8d
            blackouts: [2026-02-30, 2027-01-02..2027-01-01]
            waves:
              canary: [web9]
              percent: 120
            gate:
              confirm: 15
            failure_budget: many
            age: {updates: a week}
            packages: security-only
            reboot: {enabled: maybe, at_once: 0}
            """)
        let expected = [
            "3:17: the inventory `hosts.ini` has no group `dbs`; did you mean `db`?",
            "4:12: unknown time zone `Europe/Berlinn`; expected an IANA name such as Europe/Berlin or UTC (the system's zoneinfo)",
            "6:27: expected a list of days (mon, tue … or monday, tuesday …) or daily; got `someday`",
            "7:12: expected a time of day as HH:MM (24-hour clock, such as \"02:30\"); got `25:00`",
            "8:15: expected a window of more than 0 and at most 7d; got `8d`",
            "9:13: expected a date (YYYY-MM-DD) or a range of dates (YYYY-MM-DD..YYYY-MM-DD, the first not after the last); got `2026-02-30`",
            "9:25: expected a date (YYYY-MM-DD) or a range of dates (YYYY-MM-DD..YYYY-MM-DD, the first not after the last); got `2027-01-02..2027-01-01`",
            "12:12: expected a percentage from 1 to 100; got `120`",
            "14:12: expected a duration such as 30s, 15m, 2h or 7d; got `15`",
            "15:17: expected a number of hosts (0 or more) or a percentage of them (such as 10%); got `many`",
            "16:16: expected a duration such as 30s, 15m, 2h or 7d; got `a week`",
            "17:11: expected security, all or a list of package names; got `security-only`",
            "18:19: expected true or false; got `maybe`",
            "18:35: expected a number of hosts from 1 to 1000; got `0`",
        ]
        #expect(errors == expected)
    }

    @Test("A canary must be one of the policy's hosts, once; an unknown group is the one error, the canaries not checked against hosts the policy does not have")
    func unknownGroupAlone() throws {
        let errors = try Self.errors(Self.good.replacing("groups: [web, db]", with: "groups: [webs]"))
        #expect(errors == ["3:12: the inventory `hosts.ini` has no group `webs`; did you mean `web`?"])
        let canary = try Self.errors(Self.good.replacing("canary: [web1]", with: "canary: [web1, web9, web1]"))
        #expect(canary == ["14:18: canary `web9` is not one of the policy's hosts; did you mean `web1`?", "14:24: canary `web1` is named twice"])
    }

    @Test("A missing inventory, a YAML syntax error, and an empty file each say where")
    func fileProblems() throws {
        let missing = try Self.errors(Self.good.replacing("inventory: hosts.ini", with: "inventory: nowhere.ini"))
        #expect(missing.count == 1 && missing[0].hasPrefix("2:14: cannot read the inventory `") && missing[0].hasSuffix("nowhere.ini`: no such file"), "\(missing)")
        let syntax = try Self.errors("hosts:\n  inventory: [hosts.ini\ntime_zone: UTC\n")
        #expect(syntax.count == 1 && syntax[0].contains("invalid YAML"), "\(syntax)")
        #expect(try Self.errors("") == ["1:1: the policy is empty; it needs `hosts`, `time_zone`, `windows` and `gate`"])
        #expect(try Self.errors("hosts: {inventory: hosts.ini}\ntime_zone: UTC\nwindows: []\ngate: {confirm: 1m}\n")
            == ["3:10: expected a list of windows; got an empty list"])
    }

    @Test("Anchors, aliases and merge keys work as in manifests, within the same limits: a billion laughs is one error")
    func mergeKeysAndAliases() throws {
        let policy = try Self.load("""
            hosts: {inventory: hosts.ini}
            time_zone: UTC
            nightly: &nightly {start: "02:00", duration: 2h}
            windows:
              - {<<: *nightly, days: [tue]}
              - {<<: *nightly, days: [thu], duration: 1h}
            gate: {confirm: 10m}
            """)
        // `nightly` is no key of a policy: an anchor's home must be a known key.
        guard case .failure(let unknown) = policy else { Issue.record("an unknown top-level key was accepted"); return }
        #expect(unknown.errors.map(\.message).allSatisfy { $0.hasPrefix("unknown key `nightly`") }, "\(unknown.errors)")
        let merged = try Self.load("""
            hosts: {inventory: hosts.ini}
            time_zone: UTC
            windows:
              - &nightly {start: "02:00", duration: 2h, days: [tue]}
              - {<<: *nightly, days: [thu], duration: 1h}
            gate: {confirm: 10m}
            """).get()
        #expect(merged.windows == [PatchWindow(days: [.tuesday], startMinute: 120, duration: 7200),
                                   PatchWindow(days: [.thursday], startMinute: 120, duration: 3600)])
        var laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...7 { laughs += "l\(level): &l\(level) [" + Array(repeating: level == 1 ? "*a" : "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n" }
        let bomb = try Self.errors(laughs + "hosts: {inventory: hosts.ini}\n")
        #expect(bomb.count == 1 && bomb[0].contains("the policy is too large once its aliases (*) and merge keys (<<) are expanded"), "\(bomb)")
    }
}
