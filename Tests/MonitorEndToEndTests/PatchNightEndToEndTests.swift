import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing
import TestProcessSupport

/// `installtop patch --policy FILE` over namespace hosts, each with its own sshd, `serve`
/// recording a history and private apt root (`RolloutHosts`: lab-a 1.0 installed, 2.0
/// published): a policy of three waves (canary h1, then h2, then h3) in a window open now, each
/// host's job armed by its own engine, a check from `--checks-dir` that each host's lab-a 2.0
/// may break; compared with dpkg's database in each root and each engine's own history.
@Suite("Patch nights end to end", .serialized, .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
struct PatchNightEndToEndTests {
    /// Writes the policy, its inventory and the check into the hosts' folder; returns when its
    /// window closes (seconds since 1970). The window opened an hour ago (UTC, at the start of
    /// that minute) and lasts 3 hours. `notify` appends each summary to `notified.jsonl`
    /// unless the test gives another; `before` and `after` log each host they run for.
    @discardableResult
    private static func writePolicy(_ rollout: RolloutHosts, gate: String, notify: String = "\"cat >> notified.jsonl\"",
                                    packages: String = "all", windowHours: Int = 3, percent: Int = 33, waveAtOnce: Int = 1,
                                    extra: String = "") throws -> Int {
        let folder = rollout.hosts.folder
        var opened = time(nil) - 3600
        opened -= opened % 60
        var parts = tm()
        gmtime_r(&opened, &parts)
        let start = String(format: "%02d:%02d", parts.tm_hour, parts.tm_min)
        try "h1\nh2\nh3\n".write(toFile: folder.path("hosts.ini"), atomically: true, encoding: .utf8)
        try """
            hosts:
              inventory: hosts.ini
            time_zone: UTC
            windows:
              - days: daily
                start: "\(start)"
                duration: \(windowHours)h
            waves:
              canary: [h1]
              percent: \(percent)
              at_once: \(waveAtOnce)
            gate:
              confirm: 10m
              command: \(gate)
            failure_budget: 1           # the canary's revert stops the night at its gate
            packages: \(packages)
            commands:
              before: "echo $INSTALLTOP_HOST $INSTALLTOP_WAVE >> before.log"
              after: "echo $INSTALLTOP_HOST >> after.log"
            notify: \(notify)
            \(extra)
            """.write(toFile: folder.path("night.yaml"), atomically: true, encoding: .utf8)
        // The host's health: its lab-a 2.0 may leave `broken-HOST` behind.
        try FileManager.default.createDirectory(atPath: folder.path("checks"), withIntermediateDirectories: true)
        try ExecutableFile.write("#!/bin/sh\ntest ! -e '\(folder.path("broken-"))'$(hostname)\n", to: folder.path("checks/site"))
        return Int(opened) + windowHours * 3600
    }

    /// `installtop patch --policy … --state-dir … --checks-dir …` from the controller namespace.
    private static func patch(_ rollout: RolloutHosts, _ extra: [String] = []) throws -> [String] {
        let binary = try EndToEndFolder.binary()
        let folder = rollout.hosts.folder
        return rollout.hosts.fleet.controllerCommand([binary, "patch", "--policy", folder.path("night.yaml"), "--state-dir", folder.path("state"),
                                                      "--checks-dir", folder.path("checks"), "--ssh-config", rollout.hosts.fleet.sshConfigPath,
                                                      "--remote-command", "\(binary) bridge"] + extra)
    }

    /// `installtop patch …` (`patch(_:_:)`'s command) started in `folder`, not waited for.
    private static func start(_ command: [String], in folder: EndToEndFolder) throws -> InstalltopChild {
        try InstalltopChild(Array(command.dropFirst()), in: folder, executable: command[0])
    }

    /// Whether host `host`'s engine runs a night's job now.
    private static func nightJobRuns(_ rollout: RolloutHosts, host: Int) -> Bool {
        ((try? rollout.hosts.fleet.ownJobs(onHost: host)) ?? []).contains {
            ($0["name"] as? String)?.hasPrefix("patch night") == true && $0["state"] as? String == "running"
        }
    }

    /// Host `host`'s runs of patch nights, from its engine's history, newest first.
    private static func nightRuns(_ rollout: RolloutHosts, host: Int) async throws -> [[String: Any]] {
        let listed = try await InstalltopChild.run(["history", "--jobs", "--json", "--history-db", rollout.hosts.folder.path("h\(host)-history.db")],
                                                   in: rollout.hosts.folder)
        return listed.stdout.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }.filter { ($0["name"] as? String)?.hasPrefix("patch night") == true }
    }

    /// Polls host `host`'s newest night run until its window's state is `state` (3 minutes at most).
    private static func waitForWindow(_ rollout: RolloutHosts, host: Int, state: String) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(180)
        while ContinuousClock.now < deadline {
            let runs = (try? await nightRuns(rollout, host: host)) ?? []
            if (runs.first?["confirm"] as? [String: Any])?["state"] as? String == state { return true }
            try? await Task.sleep(for: .milliseconds(300))
        }
        return false
    }

    /// The events `notify` was run for, in order.
    private static func notified(_ rollout: RolloutHosts) -> [String] {
        let text = (try? String(contentsOfFile: rollout.hosts.folder.path("notified.jsonl"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
        }
    }

    /// Makes each host of `hosts` a machine of its own as a reboot sees it: a boot id of its own
    /// (a file bind-mounted over /proc/sys/kernel/random/boot_id in the host's mount namespace,
    /// which `ip netns exec` made a slave of the machine's, so nothing reaches the machine), and
    /// `reboot-hN.env` naming its engine's pid and its apt root for `reboot.sh`. Writes
    /// `reboot.sh`: a namespace host's reboot. It logs its start, stops the host's engine
    /// (SIGSTOP), and in a process of its own that outlives the ssh session clears the root's
    /// /run/reboot-required as a boot would, gives the host a new boot id after `downtime`
    /// seconds (the simulated boot), logs its end and lets the engine go on (SIGCONT);
    /// `comesBack: false` leaves the engine stopped and the boot id as it was. The boot of a
    /// host of `breaking` leaves `broken-hN` behind, which fails the checks folder's `site`
    /// from then on: what only a boot brings (a kernel, a library a service loads as it starts).
    private static func prepareReboots(_ rollout: RolloutHosts, hosts: [Int], comesBack: Bool = true, breaking: Set<Int> = []) throws {
        let folder = rollout.hosts.folder
        let machineBoot = try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)
        for host in hosts {
            try "\(UUID().uuidString.lowercased())\n".write(toFile: folder.path("boot_id-h\(host)"), atomically: false, encoding: .utf8)
            let mounted = try rollout.hosts.fleet.run(onHost: host, "mount --bind '\(folder.path("boot_id-h\(host)"))' /proc/sys/kernel/random/boot_id")
            #expect(mounted.status == 0, "\(mounted.stderr)")
            try "PID=\(rollout.hosts.engines[host - 1].pid)\nROOT='\(rollout.hosts.root(host).root)'\nBREAKS=\(breaking.contains(host) ? 1 : 0)\n"
                .write(toFile: folder.path("reboot-h\(host).env"), atomically: true, encoding: .utf8)
        }
        #expect(try String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8) == machineBoot, "this machine's boot id untouched")
        try """
            sleep 1
            rm -f "$ROOT/run/reboot-required" "$ROOT/run/reboot-required.pkgs"
            cat /proc/sys/kernel/random/uuid > '\(folder.path("boot_id-"))'$HOST
            if [ "$BREAKS" = 1 ]; then touch '\(folder.path("broken-"))'$HOST; fi
            echo "$HOST end $(date +%s.%N)" >> '\(folder.path("reboots.log"))'
            kill -CONT $PID
            """.write(toFile: folder.path("come-back.sh"), atomically: true, encoding: .utf8)
        let comeBack = comesBack ? "setsid sh '\(folder.path("come-back.sh"))' </dev/null >/dev/null 2>&1 &" : ""
        try """
            set -e
            HOST=$(hostname)
            . '\(folder.path("reboot-"))'$HOST.env
            export HOST ROOT PID BREAKS
            echo "$HOST start $(date +%s.%N)" >> '\(folder.path("reboots.log"))'
            kill -STOP $PID
            \(comeBack)
            """.write(toFile: folder.path("reboot.sh"), atomically: true, encoding: .utf8)
    }

    /// The reboots `reboot.sh` logged, by host: when each started and ended (seconds), in the order they started.
    private static func reboots(_ rollout: RolloutHosts) -> [(host: String, start: Double, end: Double?)] {
        let text = (try? String(contentsOfFile: rollout.hosts.folder.path("reboots.log"), encoding: .utf8)) ?? ""
        var found: [(host: String, start: Double, end: Double?)] = []
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            guard parts.count == 3, let time = Double(parts[2]) else { continue }
            if parts[1] == "start" {
                found.append((String(parts[0]), time, nil))
            } else if let index = found.lastIndex(where: { $0.host == parts[0] && $0.end == nil }) {
                found[index].end = time
            }
        }
        return found.sorted { $0.start < $1.start }
    }

    @Test("Reboots one at a time: each host's lab-a 2.0 asks for a reboot (/run/reboot-required); h1 alone, then h2 and h3 patched at once in one wave; each rebooted by reboot.command (its engine stopped, a new boot id, its engine going on) with at_once 1, never two down together; each back, its run kept by a fresh ssh login; exit 0; --status and notify's JSON say each reboot")
    func rebootsOneAtATime() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        for host in 1...3 {
            try rollout.hosts.root(host).publish(BoardAPTHosts.packages(gateInPreinst: false)
                + [TestPackage(name: "lab-a", version: "2.0", postinst: TestPackage.rebootRequestingPostinst)])
        }
        try Self.prepareReboots(rollout, hosts: [1, 2, 3])
        try Self.writePolicy(rollout, gate: "\"true\"", percent: 100, waveAtOnce: 2,
                             extra: "reboot:\n  at_once: 1\n  command: sh '\(folder.path("reboot.sh"))'\n  timeout: 2m")
        #expect(await rollout.hosts.waitUntilServing())

        let result = try await FleetCommand.run(try Self.patch(rollout), timeout: .seconds(600))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("note:"), "\(result.stdout)")
        for host in 1...3 {
            #expect(result.stdout.contains("h\(host): needs a reboot (/run/reboot-required: lab-a); rebooting"), "\(result.stdout)")
            #expect(result.stdout.contains("h\(host): back after "), "\(result.stdout)")
            #expect(result.stdout.contains("h\(host): checks after the boot: passed"), "\(result.stdout)")
            #expect(result.stdout.contains("h\(host): confirmed"), "\(result.stdout)")
            #expect(await Self.waitForWindow(rollout, host: host, state: "confirmed"))
            #expect(try rollout.labA(onHost: host) == "ii 2.0")
            #expect(try await Self.nightRuns(rollout, host: host).count == 1)
        }
        #expect(result.stdout.contains("night finished"), "\(result.stdout)")
        let reboots = Self.reboots(rollout)
        #expect(reboots.map(\.host).sorted() == ["h1", "h2", "h3"], "\(reboots)")
        #expect(reboots.first?.host == "h1")
        for (earlier, later) in zip(reboots, reboots.dropFirst()) {
            #expect(earlier.end.map { $0 <= later.start } == true, "\(later.host)'s reboot began before \(earlier.host) was back: \(reboots)")
        }
        let status = try await FleetCommand.run(try Self.patch(rollout, ["--status", "--json"]), timeout: .seconds(60))
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        let hosts = object?["hosts"] as? [[String: Any]] ?? []
        #expect(hosts.map { $0["step"] as? String } == ["confirmed", "confirmed", "confirmed"], "\(status.stdout)")
        #expect(hosts.allSatisfy { ($0["reboot"] as? String)?.hasPrefix("rebooted (/run/reboot-required: lab-a), back after ") == true }, "\(status.stdout)")
        let lines = try await FleetCommand.run(try Self.patch(rollout, ["--status"]), timeout: .seconds(60))
        #expect(lines.stdout.contains("h2 (wave 2): confirmed; reboot: rebooted (/run/reboot-required: lab-a), back after "), "\(lines.stdout)")
        let notified = ((try? String(contentsOfFile: folder.path("notified.jsonl"), encoding: .utf8)) ?? "").split(separator: "\n")
        #expect(notified.last?.contains(#""reboot":"rebooted"#) == true, "\(notified)")
        let said = result.stdout.split(separator: "\n").filter { $0.contains("reboot") || $0.contains("back after") }
        print("patch night of 3 hosts, each rebooted one at a time: \(reboots)\n" + said.joined(separator: "\n"))
    }

    @Test("A reboot that breaks the site: h1's lab-a 2.0 asks for a reboot and its checks pass after the job; its boot leaves broken-h1, so its engine's checks run again after the boot regress: h1 reverted by its own engine at once (lab-a back at 1.0), the regression in its history; the night stops at the canary's gate, exit 1; h2 and h3 untouched")
    func rebootBreaksTheChecks() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        try rollout.hosts.root(1).publish(BoardAPTHosts.packages(gateInPreinst: false)
            + [TestPackage(name: "lab-a", version: "2.0", postinst: TestPackage.rebootRequestingPostinst)])
        try Self.prepareReboots(rollout, hosts: [1], breaking: [1])
        try Self.writePolicy(rollout, gate: "\"echo $INSTALLTOP_WAVE >> gate.log\"",
                             extra: "reboot:\n  command: sh '\(folder.path("reboot.sh"))'\n  timeout: 2m")
        #expect(await rollout.hosts.waitUntilServing())

        let result = try await FleetCommand.run(try Self.patch(rollout), timeout: .seconds(600))
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let regression = "\(folder.path("checks/site")): passed → failed: exit status 1"
        #expect(result.stdout.contains("h1: run ") && !result.stdout.split(separator: "\n").contains { $0.hasPrefix("h1: run ") && $0.contains(": regressed: ") },
                "no regression after the job: \(result.stdout)")
        #expect(result.stdout.contains("h1: needs a reboot (/run/reboot-required: lab-a); rebooting"), "\(result.stdout)")
        #expect(result.stdout.contains("h1: back after "), "\(result.stdout)")
        #expect(result.stdout.contains("h1: checks after the boot: \(regression) regressed; its host reverts it at once"), "\(result.stdout)")
        #expect(result.stdout.contains("h1: reverted: run ") && result.stdout.contains("regressed after its reboot; its host reverts it at once"),
                "\(result.stdout)")
        #expect(!result.stdout.contains("fresh ssh login works"), "\(result.stdout)")
        #expect(result.stdout.contains("night stopped: wave 1 did not pass its gate: h1 reverted"), "\(result.stdout)")
        #expect(Self.reboots(rollout).map(\.host) == ["h1"])
        #expect(await Self.waitForWindow(rollout, host: 1, state: "reverted"), "\(rollout.hosts.engines[0].stderr)")
        #expect(try rollout.labA(onHost: 1) == "ii 1.0")
        let window = try await Self.nightRuns(rollout, host: 1).first?["confirm"] as? [String: Any]
        let regressions = (window?["regressions"] as? [[String: Any]] ?? []).map { "\($0["check"] ?? ""): \($0["before"] ?? "") → \($0["after"] ?? "")" }
        #expect(regressions == [regression], "\(String(describing: window))")
        #expect((window?["reason"] as? String)?.contains(regression) == true, "\(String(describing: window))")
        let table = try await InstalltopChild.run(["history", "--jobs", "--history-db", folder.path("h1-history.db")], in: folder)
        #expect(table.stdout.contains("checks run again at "), "\(table.stdout)")
        for host in 2...3 {
            #expect(try rollout.labA(onHost: host) == "ii 1.0")
            #expect(try await Self.nightRuns(rollout, host: host).isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("gate.log")), "no gate command after a reverted wave")
        print(result.stdout.split(separator: "\n").filter { $0.hasPrefix("h1:") || $0.hasPrefix("night") }.joined(separator: "\n"))
    }

    @Test("A host not back: h1 shares this machine's boot id and is never rebooted (said, left for the operator, its run kept); h2's reboot stops its engine for good: after reboot.timeout the night stops whatever its budget, exit 1, h2 unreachable and its run not kept, h3 untouched")
    func hostNotBackStopsTheNight() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        for host in 1...3 {
            try rollout.hosts.root(host).publish(BoardAPTHosts.packages(gateInPreinst: false)
                + [TestPackage(name: "lab-a", version: "2.0", postinst: TestPackage.rebootRequestingPostinst)])
        }
        // h1 keeps the machine's boot id: to the night it is this machine.
        try Self.prepareReboots(rollout, hosts: [2, 3], comesBack: false)
        try Self.writePolicy(rollout, gate: "\"true\"", extra: "reboot:\n  command: sh '\(folder.path("reboot.sh"))'\n  timeout: 15s")
        #expect(await rollout.hosts.waitUntilServing())

        let result = try await FleetCommand.run(try Self.patch(rollout), timeout: .seconds(600))
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("h1: needs a reboot (/run/reboot-required: lab-a); not rebooted: it is this machine, where the night runs (its boot id, "),
                "\(result.stdout)")
        #expect(result.stdout.contains("h1: confirmed"), "\(result.stdout)")
        #expect(result.stdout.contains("h2: needs a reboot (/run/reboot-required: lab-a); rebooting"), "\(result.stdout)")
        #expect(result.stdout.contains("h2: unreachable: did not come back within 15s of its reboot"), "\(result.stdout)")
        #expect(result.stdout.contains("night stopped: h2 did not come back after its reboot"), "\(result.stdout)")
        #expect(!result.stdout.contains("h3: patching"), "\(result.stdout)")
        #expect(Self.reboots(rollout).map(\.host) == ["h2"], "h1 never rebooted")
        #expect(await Self.waitForWindow(rollout, host: 1, state: "confirmed"))
        #expect((try await Self.nightRuns(rollout, host: 2).first?["confirm"] as? [String: Any])?["state"] as? String == "armed",
                "h2's run is left to its deadline")
        #expect(try rollout.labA(onHost: 3) == "ii 1.0")
        #expect(try await Self.nightRuns(rollout, host: 3).isEmpty)
        let status = try await FleetCommand.run(try Self.patch(rollout, ["--status"]), timeout: .seconds(60))
        #expect(status.stdout.contains("night: stopped: h2 did not come back after its reboot")
                && status.stdout.contains("h1 (wave 1): confirmed; reboot: needs a reboot (/run/reboot-required: lab-a), left for the operator: it is this machine")
                && status.stdout.contains("h2 (wave 2): unreachable: did not come back within 15s"), "\(status.stdout)\(status.stderr)")
        // The engine the test stopped goes on before the teardown ends it.
        kill(rollout.hosts.engines[1].pid, SIGCONT)
    }

    @Test("The window closes while the canary's job runs (--now 40 s before its end) and its lab-a 2.0 asks for a reboot: h1 is not rebooted (said: the window closed, left for the operator), its run still kept; exit 1, no reboot command run")
    func noRebootAfterTheWindow() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [1], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        try rollout.hosts.root(1).publish(BoardAPTHosts.packages(gateInPreinst: false)
            + [TestPackage(name: "lab-a", version: "2.0", postinst: #"while [ ! -e "$DPKG_ROOT/upgrade-gate" ]; do sleep 0.05; done"# + "\n"
                + TestPackage.rebootRequestingPostinst)])
        try Self.prepareReboots(rollout, hosts: [1, 2, 3])
        let windowEnd = try Self.writePolicy(rollout, gate: "\"true\"", extra: "reboot:\n  command: sh '\(folder.path("reboot.sh"))'")
        #expect(await rollout.hosts.waitUntilServing())
        let command = try Self.patch(rollout, ["--now", String(windowEnd - 40)])
        let night = try Self.start(command, in: folder)
        #expect(await EndToEndFolder.eventually(timeout: .seconds(120)) { night.stdout.contains("the window closed") }, "\(night.stdout)\(night.stderr)")
        rollout.openUpgradeGate(onHost: 1)
        #expect(await night.finish(timeout: .seconds(300)) == 1, "\(night.stdout)\(night.stderr)")
        #expect(night.stdout.contains("h1: needs a reboot (/run/reboot-required: lab-a); not rebooted: the window closed before its reboot could start; left for you (installtop restarts --host h1)"),
                "\(night.stdout)")
        #expect(night.stdout.contains("h1: confirmed") && night.stdout.contains("night stopped: the window closed"), "\(night.stdout)")
        #expect(Self.reboots(rollout).isEmpty, "no reboot command ran")
        #expect(await Self.waitForWindow(rollout, host: 1, state: "confirmed"))
        let status = try await FleetCommand.run(try Self.patch(rollout, ["--status", "--json"]), timeout: .seconds(60))
        #expect(status.stdout.contains(#""reboot":"needs a reboot (/run/reboot-required: lab-a), left for the operator: the window closed before its reboot could start""#),
                "\(status.stdout)")
    }

    @Test("A partial failure that leaves a reboot reason: h1's lab-a 2.0 postinst asks for a reboot and then fails; its run is armed, so h1 is rebooted all the same and comes back; it stays failed (its run left to its deadline), the canary's wave confirmed no host: exit 1")
    func rebootAfterPartialFailure() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        try rollout.hosts.root(1).publish(BoardAPTHosts.packages(gateInPreinst: false)
            + [TestPackage(name: "lab-a", version: "2.0", postinst: TestPackage.rebootRequestingPostinst + "\necho 'lab-a 2.0: configuration refused' >&2; exit 1")])
        try Self.prepareReboots(rollout, hosts: [1, 2, 3])
        try Self.writePolicy(rollout, gate: "\"true\"", extra: "reboot:\n  command: sh '\(folder.path("reboot.sh"))'\n  timeout: 2m")
        #expect(await rollout.hosts.waitUntilServing())

        let result = try await FleetCommand.run(try Self.patch(rollout), timeout: .seconds(600))
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("h1: needs a reboot (/run/reboot-required: lab-a) after its job failed part-way; rebooting"), "\(result.stdout)")
        #expect(result.stdout.contains("h1: back after "), "\(result.stdout)")
        #expect(result.stdout.contains("h1: failed: "), "\(result.stdout)")
        #expect(result.stdout.contains("night stopped: wave 1 did not pass its gate: no host of the wave was confirmed"), "\(result.stdout)")
        #expect(Self.reboots(rollout).map(\.host) == ["h1"])
        #expect((try await Self.nightRuns(rollout, host: 1).first?["confirm"] as? [String: Any])?["state"] as? String == "armed",
                "h1's run is left to its deadline")
        #expect(!result.stdout.contains("h2: patching"), "\(result.stdout)")
    }

    @Test("Three waves, the canary's upgrade breaks its check: h1 reverted by its own engine (lab-a back at 1.0), the night stops at the canary's gate, exit 1; h2 and h3 untouched; notify told of the start and the stop; --again starts a new night in the window")
    func canaryBreaks() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        try rollout.hosts.root(1).publish(BoardAPTHosts.packages(gateInPreinst: false)
            + [TestPackage(name: "lab-a", version: "2.0", postinst: "touch '\(folder.path("broken-h1"))'")])
        try Self.writePolicy(rollout, gate: "\"echo $INSTALLTOP_WAVE $INSTALLTOP_CONFIRMED_HOSTS >> gate.log\"")
        #expect(await rollout.hosts.waitUntilServing())

        let result = try await FleetCommand.run(try Self.patch(rollout), timeout: .seconds(400))
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("h1: patching (wave 1)"), "\(result.stdout)")
        #expect(result.stdout.contains("h1: reverted: ") && result.stdout.contains("regressed; its host reverts it at once"), "\(result.stdout)")
        #expect(result.stdout.contains("night stopped: wave 1 did not pass its gate: h1 reverted"), "\(result.stdout)")
        #expect(!result.stdout.contains("h2: patching") && !result.stdout.contains("h3: patching"), "\(result.stdout)")
        #expect(await Self.waitForWindow(rollout, host: 1, state: "reverted"), "\(rollout.hosts.engines[0].stderr)")
        #expect(try rollout.labA(onHost: 1) == "ii 1.0")
        #expect(try rollout.hosts.root(1).audit().isEmpty)
        for host in 2...3 {
            #expect(try rollout.labA(onHost: host) == "ii 1.0")
            #expect(try await Self.nightRuns(rollout, host: host).isEmpty)
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path("gate.log")), "no gate command after a reverted wave")
        #expect(Self.notified(rollout) == ["starting", "stopped"])

        // The stamp says so off a terminal; a second start in the same window does nothing.
        let status = try await FleetCommand.run(try Self.patch(rollout, ["--status"]), timeout: .seconds(60))
        #expect(status.status == 0 && status.stdout.contains("night: stopped: wave 1 did not pass its gate")
                && status.stdout.contains("h1 (wave 1): reverted: ") && status.stdout.contains("h2 (wave 2): pending"), "\(status.stdout)\(status.stderr)")
        let again = try await FleetCommand.run(try Self.patch(rollout), timeout: .seconds(60))
        #expect(again.status == 8 && again.stdout.contains("is over already") && again.stdout.contains("--again"), "\(again.stdout)\(again.stderr)")
        // --again starts a new night in the window. The check passes again (its marker gone, as
        // after a repair); lab-a 2.0 still breaks it, so the canary is patched and reverted once more.
        try FileManager.default.removeItem(atPath: folder.path("broken-h1"))
        let anew = try await FleetCommand.run(try Self.patch(rollout, ["--again"]), timeout: .seconds(400))
        #expect(anew.status == 1 && anew.stdout.contains("the night of this window was over (stopped: wave 1 did not pass its gate")
                && anew.stdout.contains("h1: patching (wave 1)") && anew.stdout.contains("night stopped: wave 1 did not pass its gate: h1 reverted"),
                "\(anew.stdout)\(anew.stderr)")
        #expect(await Self.waitForWindow(rollout, host: 1, state: "reverted"), "\(rollout.hosts.engines[0].stderr)")
        #expect(try rollout.labA(onHost: 1) == "ii 1.0")
        #expect(Self.notified(rollout) == ["starting", "stopped", "starting", "stopped"])
    }

    @Test("Three healthy waves: each host patched, armed and kept after a fresh ssh login (lab-a 2.0, window confirmed), the gate's command told each wave's hosts, exit 0; --status --json says finished")
    func allHealthy() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        try Self.writePolicy(rollout, gate: "\"echo $INSTALLTOP_WAVE $INSTALLTOP_CONFIRMED_HOSTS >> gate.log\"")
        #expect(await rollout.hosts.waitUntilServing())

        let started = ContinuousClock.now
        let result = try await FleetCommand.run(try Self.patch(rollout), timeout: .seconds(600))
        let took = ContinuousClock.now - started
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for (host, wave) in [(1, 1), (2, 2), (3, 3)] {
            #expect(result.stdout.contains("h\(host): patching (wave \(wave))"), "\(result.stdout)")
            #expect(result.stdout.contains("h\(host): confirmed"), "\(result.stdout)")
            #expect(result.stdout.contains("wave \(wave) gate passed"), "\(result.stdout)")
            #expect(await Self.waitForWindow(rollout, host: host, state: "confirmed"))
            #expect(try rollout.labA(onHost: host) == "ii 2.0")
            #expect(try await Self.nightRuns(rollout, host: host).count == 1)
        }
        #expect(result.stdout.contains("night finished"), "\(result.stdout)")
        let gates = (try? String(contentsOfFile: folder.path("gate.log"), encoding: .utf8)) ?? ""
        #expect(gates == "1 h1\n2 h2\n3 h3\n", "\(gates)")
        #expect((try? String(contentsOfFile: folder.path("before.log"), encoding: .utf8)) == "h1 1\nh2 2\nh3 3\n")
        #expect((try? String(contentsOfFile: folder.path("after.log"), encoding: .utf8)) == "h1\nh2\nh3\n")
        #expect(Self.notified(rollout) == ["starting", "wave-passed", "wave-passed", "wave-passed", "finished"])
        let status = try await FleetCommand.run(try Self.patch(rollout, ["--status", "--json"]), timeout: .seconds(60))
        let object = try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any]
        #expect(object?["phase"] as? String == "finished", "\(status.stdout)\(status.stderr)")
        #expect((object?["hosts"] as? [[String: Any]])?.map { $0["step"] as? String } == ["confirmed", "confirmed", "confirmed"])
        print("patch night of 3 healthy hosts in 3 waves took \(took)")
    }

    @Test("The admin process SIGKILLed while h2's job runs, h2's gate opened, then started again: it resumes from its stamp, recovers h2 from its engine (its job ended meanwhile or ends now: its armed run is kept by a fresh ssh login) and runs its after command, patches h3, exit 0; each host has exactly one night run in its history")
    func killedAndResumed() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [2], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        try Self.writePolicy(rollout, gate: "\"true\"")
        #expect(await rollout.hosts.waitUntilServing())

        let command = try Self.patch(rollout)
        let first = try Self.start(command, in: folder)
        // h2's job runs once its engine reports it running: its lab-a postinst waits at the gate.
        let running = await EndToEndFolder.eventually(timeout: .seconds(300)) {
            first.stdout.contains("h2: patching (wave 2)") && Self.nightJobRuns(rollout, host: 2)
        }
        #expect(running, "\(first.stdout)\(first.stderr)")
        kill(first.pid, SIGKILL)
        #expect(await first.finish(timeout: .seconds(30)) == 128 + SIGKILL)
        rollout.openUpgradeGate(onHost: 2)

        let second = try await FleetCommand.run(command, timeout: .seconds(600))
        #expect(second.status == 0, "first:\n\(first.stdout)\(first.stderr)\nsecond:\n\(second.stdout)\(second.stderr)")
        #expect(second.stdout.contains("resuming the night of"), "\(second.stdout)")
        #expect(second.stdout.contains("h2: was running when the night was interrupted"), "\(second.stdout)")
        #expect(!second.stdout.contains("h1: patching") && !second.stdout.contains("h2: patching"), "\(second.stdout)")
        #expect(second.stdout.contains("h2: confirmed") && second.stdout.contains("h3: confirmed"), "\(second.stdout)")
        for host in 1...3 {
            #expect(try await Self.nightRuns(rollout, host: host).count == 1, "h\(host) patched once")
            #expect(try rollout.labA(onHost: host) == "ii 2.0")
        }
        // h2's before ran in the killed process, its after in the one that recovered it: a host
        // drained for its job is put back.
        #expect((try? String(contentsOfFile: folder.path("before.log"), encoding: .utf8)) == "h1 1\nh2 2\nh3 3\n")
        #expect((try? String(contentsOfFile: folder.path("after.log"), encoding: .utf8)) == "h1\nh2\nh3\n")
    }

    @Test("The window closes while the canary's job runs (--now 40 s before its end): h1 finishes and is confirmed, its wave is gated, no further wave starts; the night stops, exit 1; h2 and h3 untouched")
    func windowClosesMidWave() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [1], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        // A notify command that fails is said and never stops the night.
        let windowEnd = try Self.writePolicy(rollout, gate: "\"true\"", notify: "\"cat > /dev/null; exit 3\"")
        #expect(await rollout.hosts.waitUntilServing())
        // The night's clock 40 s before the window's end: its timer fires 40 s after it starts, while h1's job waits at its gate.
        let closingSoon = windowEnd - 40
        let command = try Self.patch(rollout, ["--now", String(closingSoon)])
        let night = try Self.start(command, in: folder)
        let closed = await EndToEndFolder.eventually(timeout: .seconds(120)) { night.stdout.contains("the window closed") }
        #expect(closed, "\(night.stdout)\(night.stderr)")
        #expect(night.poll() == nil, "h1's job still runs: \(night.stdout)")
        rollout.openUpgradeGate(onHost: 1)
        let status = await night.finish(timeout: .seconds(300))
        #expect(status == 1, "\(night.stdout)\(night.stderr)")
        #expect(night.stdout.contains("h1: confirmed"), "\(night.stdout)")
        #expect(night.stdout.contains("wave 1 gate passed"), "\(night.stdout)")
        #expect(night.stdout.contains("night stopped: the window closed"), "\(night.stdout)")
        #expect(night.stderr.contains("notify (starting): its command exited 3; the night goes on"), "\(night.stderr)")
        #expect(night.stderr.contains("notify (stopped): its command exited 3"), "\(night.stderr)")
        #expect(try rollout.labA(onHost: 1) == "ii 2.0")
        for host in 2...3 {
            #expect(try rollout.labA(onHost: host) == "ii 1.0")
            #expect(try await Self.nightRuns(rollout, host: host).isEmpty)
        }
    }

    @Test("While h2's job runs a second process of the policy refuses (exit 9) and --status says h2 running; the admin process SIGKILLed, started again while the job still runs: the new process follows h2's job to its end (starting nothing), keeps its run by a fresh ssh login, patches h3, exit 0; one night run per host")
    func killedAndResumedWhileTheJobRuns() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [2], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        try Self.writePolicy(rollout, gate: "\"true\"")
        #expect(await rollout.hosts.waitUntilServing())

        let command = try Self.patch(rollout)
        let jobRuns = { Self.nightJobRuns(rollout, host: 2) }
        let first = try Self.start(command, in: folder)
        #expect(await EndToEndFolder.eventually(timeout: .seconds(300)) { first.stdout.contains("h2: patching (wave 2)") && jobRuns() },
                "\(first.stdout)\(first.stderr)")
        // Meanwhile a second process of the same policy refuses, and the stamp says where the night is.
        let beside = try await FleetCommand.run(command, timeout: .seconds(60))
        #expect(beside.status == 9 && beside.stderr.contains("another installtop patch runs this policy's night now"),
                "\(beside.stdout)\(beside.stderr)")
        let status = try await FleetCommand.run(try Self.patch(rollout, ["--status"]), timeout: .seconds(60))
        #expect(status.stdout.contains("night: patching wave 2 (of 3 waves)") && status.stdout.contains("h1 (wave 1): confirmed")
                && status.stdout.contains("h2 (wave 2): running") && status.stdout.contains("h3 (wave 3): pending"), "\(status.stdout)\(status.stderr)")
        kill(first.pid, SIGKILL)
        #expect(await first.finish(timeout: .seconds(30)) == 128 + SIGKILL)

        let second = try Self.start(command, in: folder)
        #expect(await EndToEndFolder.eventually(timeout: .seconds(120)) { second.stdout.contains("h2: was running when the night was interrupted") },
                "\(second.stdout)\(second.stderr)")
        // Still at its gate: the new process can only have found it running.
        #expect(jobRuns())
        rollout.openUpgradeGate(onHost: 2)
        #expect(await second.finish(timeout: .seconds(300)) == 0, "\(second.stdout)\(second.stderr)")
        #expect(second.stdout.contains("h2: run ") && second.stdout.contains("h2: confirmed") && second.stdout.contains("h3: confirmed"),
                "\(second.stdout)")
        #expect(!second.stdout.contains("h2: patching"), "\(second.stdout)")
        for host in 1...3 {
            #expect(try await Self.nightRuns(rollout, host: host).count == 1, "h\(host) patched once")
            #expect(try rollout.labA(onHost: host) == "ii 2.0")
        }
    }

    @Test("packages: security (the default): each host takes only its pending upgrade from the security archive (lab-s 2.0, Debian-Security); lab-a's 2.0 from the main archive stays pending (1.0 kept); exit 0")
    func securityOnly() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        for host in 1...3 {
            let root = rollout.hosts.root(host)
            try root.publish(BoardAPTHosts.packages(gateInPreinst: false) + [TestPackage(name: "lab-a", version: "2.0"), TestPackage(name: "lab-s")])
            try root.aptGet(["install", "-y", "lab-s"], check: true)
            try root.publishSecurity([TestPackage(name: "lab-s", version: "2.0")])
        }
        try Self.writePolicy(rollout, gate: "\"true\"", packages: "security")
        #expect(await rollout.hosts.waitUntilServing())

        let result = try await FleetCommand.run(try Self.patch(rollout), timeout: .seconds(600))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for host in 1...3 {
            #expect(result.stdout.contains("h\(host): confirmed"), "\(result.stdout)")
            let states = try rollout.hosts.root(host).states()
            #expect(states["lab-s"].map { "\($0.status) \($0.version)" } == "ii 2.0", "h\(host)")
            #expect(try rollout.labA(onHost: host) == "ii 1.0", "h\(host): lab-a's upgrade is no security update")
            #expect(try await Self.nightRuns(rollout, host: host).count == 1)
        }
    }

    @Test("packages: a list: each host takes the upgrades of the listed packages it has pending (lab-s 2.0), a listed package it lacks is no failure, and lab-a's pending 2.0 is left (1.0 kept); exit 0")
    func listedPackagesOnly() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        for host in 1...3 {
            let root = rollout.hosts.root(host)
            try root.publish(BoardAPTHosts.packages(gateInPreinst: false) + [TestPackage(name: "lab-a", version: "2.0"), TestPackage(name: "lab-s")])
            try root.aptGet(["install", "-y", "lab-s"], check: true)
            try root.publish(BoardAPTHosts.packages(gateInPreinst: false)
                + [TestPackage(name: "lab-a", version: "2.0"), TestPackage(name: "lab-s"), TestPackage(name: "lab-s", version: "2.0")])
        }
        try Self.writePolicy(rollout, gate: "\"true\"", packages: "[lab-s, lab-not-installed]")
        #expect(await rollout.hosts.waitUntilServing())

        let result = try await FleetCommand.run(try Self.patch(rollout), timeout: .seconds(600))
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for host in 1...3 {
            let states = try rollout.hosts.root(host).states()
            #expect(states["lab-s"].map { "\($0.status) \($0.version)" } == "ii 2.0", "h\(host)")
            #expect(states["lab-not-installed"] == nil)
            #expect(try rollout.labA(onHost: host) == "ii 1.0", "h\(host): lab-a is not on the list")
        }
    }

    @Test("age: 1h: a version the hosts' engines first listed minutes ago waits (each host says until when; nothing runs, exit 0); the same night two hours later (--now) takes it: lab-a 2.0 on every host, one night run each")
    func ageGate() async throws {
        let rollout = try RolloutHosts(count: 3, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        let folder = rollout.hosts.folder
        try Self.writePolicy(rollout, gate: "\"true\"", windowHours: 6, extra: "age:\n  updates: 1h")
        #expect(await rollout.hosts.waitUntilServing())

        let young = try await FleetCommand.run(try Self.patch(rollout), timeout: .seconds(400))
        #expect(young.status == 0, "\(young.stdout)\(young.stderr)")
        for host in 1...3 {
            #expect(young.stdout.contains("h\(host): lab-a waits for the age gate until "), "\(young.stdout)")
            #expect(try rollout.labA(onHost: host) == "ii 1.0")
            #expect(try await Self.nightRuns(rollout, host: host).isEmpty)
        }

        // The next night, two hours on: the stamp of this one gone, as a new window's would be.
        try FileManager.default.removeItem(atPath: folder.path("state"))
        let later = try await FleetCommand.run(try Self.patch(rollout, ["--now", String(Int(time(nil)) + 7200)]), timeout: .seconds(600))
        #expect(later.status == 0, "\(later.stdout)\(later.stderr)")
        #expect(!later.stdout.contains("waits for the age gate"), "\(later.stdout)")
        for host in 1...3 {
            #expect(await Self.waitForWindow(rollout, host: host, state: "confirmed"))
            #expect(try rollout.labA(onHost: host) == "ii 2.0")
            #expect(try await Self.nightRuns(rollout, host: host).count == 1)
        }
    }
}
