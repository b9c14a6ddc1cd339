import APTTestSupport
import FleetTestSupport
import Foundation
import Glibc
import Testing

/// The collection's module (`installtop.fleet.job`, Documentation/ANSIBLE-MODULE.md) patching
/// two namespace hosts (`RolloutHosts`: each with its own sshd, `installtop serve` recording a
/// history, and private apt root with lab-a 1.0 installed and 2.0 published) from a playbook with
/// `serial: 1`, run by the test toolchain's ansible-playbook over ssh from the controller
/// namespace. Judged by Ansible's own account (the PLAY RECAP and its task lines), dpkg's final
/// state in each root, each engine's history, and the results the module returned (each host
/// writes its registered result into the test's folder).
@Suite("The Ansible module patching namespace hosts end to end", .serialized,
       .enabled(if: geteuid() == 0, "network namespaces and their sshd need root"))
struct AnsibleModuleEndToEndTests {
    static let collections = AnsibleToolchain.packageRoot + "/Ansible"

    /// The playbook: every host, one at a time, upgraded through the module (with a
    /// `healthCheck`, armed with `confirm: 10m` and kept after that check; without one, in the
    /// engine named by `socket`), its result written to `result-HOST.json` in the folder.
    private static func playbook(binary: String, folder: EndToEndFolder, healthCheck: String?) -> String {
        let armed = healthCheck.map { check in
            """
                    confirm: 10m
                    checks_dir: \(folder.path("no-checks"))
                    health_check: \(check)
            """
        }
        // Without a window the job runs in the engine, named by its socket (root's default, in the host's own /run).
        let engine = "        socket: \(FleetTestHosts.engineSocket)"
        return """
        - name: Patch in waves
          hosts: fleet
          serial: 1
          gather_facts: false
          environment:
            # No test hands the real systemd a revert timer (Documentation/COMMIT-CONFIRMED.md, "Test hooks").
            INSTALLTOP_SYSTEMD_RUNNING: "0"
          tasks:
            - name: Upgrade through installtop
              installtop.fleet.job:
                installtop: \(binary)
                state: upgraded
                apt_config: "{{ apt_config }}"
                history_db: "{{ history_db | default(omit) }}"
        \(armed ?? engine)
              register: patch
            - name: Keep the result
              check_mode: false
              ansible.builtin.copy:
                content: "{{ patch | to_json }}"
                dest: "\(folder.path("result-")){{ inventory_hostname }}.json"
        """
    }

    /// Writes the playbook and each host's variables (its root, and with `namingHistory` its
    /// engine's history; else the module finds it) beside it.
    private static func prepare(_ rollout: RolloutHosts, healthCheck: String?, namingHistory: Bool = true) throws -> String {
        let folder = rollout.hosts.folder
        try FileManager.default.createDirectory(atPath: folder.path("no-checks"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: folder.path("host_vars"), withIntermediateDirectories: true)
        for host in 1...rollout.hosts.roots.count {
            try folder.write("host_vars/h\(host).yml", """
                apt_config: \(rollout.hosts.root(host).configuration)
                \(namingHistory ? "history_db: " + folder.path("h\(host)-history.db") : "")

                """)
        }
        try folder.write("patch.yml", playbook(binary: try EndToEndFolder.binary(), folder: folder, healthCheck: healthCheck))
        return folder.path("patch.yml")
    }

    /// `ansible-playbook ARGUMENTS -i <fleet inventory> PLAYBOOK` in the controller namespace,
    /// with the collection on Ansible's path.
    private static func ansiblePlaybook(_ rollout: RolloutHosts, _ playbook: String, _ arguments: [String] = []) async throws -> FleetCommand {
        let toolchain = try AnsibleToolchain.locate()
        let fleet = rollout.hosts.fleet
        var environment = fleet.ansibleEnvironment
        environment["ANSIBLE_COLLECTIONS_PATH"] = collections
        return try await FleetCommand.run(fleet.controllerCommand([toolchain.playbook, "-i", fleet.inventoryPath] + arguments + [playbook]),
                                          environment: environment, timeout: .seconds(900), silentFor: .seconds(400))
    }

    /// Host `host`'s runs in its engine's history (`history --jobs --json`), newest first.
    private static func runs(_ rollout: RolloutHosts, host: Int) async throws -> [[String: Any]] {
        let listed = try await InstalltopChild.run(["history", "--jobs", "--json", "--history-db", rollout.hosts.folder.path("h\(host)-history.db")],
                                                   in: rollout.hosts.folder)
        return listed.stdout.split(separator: "\n").compactMap { line in
            try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        }
    }

    /// What the module returned on host `host` (its `result-hN.json`).
    private static func returned(_ rollout: RolloutHosts, host: Int) throws -> [String: Any] {
        let path = rollout.hosts.folder.path("result-h\(host).json")
        let data = try #require(FileManager.default.contents(atPath: path), "the playbook wrote no \(path)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
    }

    @Test("""
        A playbook with serial: 1 upgrades h1 then h2 through installtop.fleet.job with confirm: 10m and a health check: \
        check mode first returns the plan and changes nothing; then each host's run is armed, confirmed and kept \
        (recap ok=2 changed=2 failed=0 each, lab-a 2.0 in each root, the window confirmed in each engine's history, \
        the module's run, versions, outcome and WUA code as the history has them); a second run changes nothing
        """)
    func twoHostsOneAtATime() async throws {
        let toolchain = try? AnsibleToolchain.locate()
        try #require(toolchain != nil, "ansible-core is not installed (Scripts/install-prerequisites test makes .build/ansible-venv)")
        let machine = HostPackageFingerprint()
        let rollout = try RolloutHosts(count: 2, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        #expect(await rollout.hosts.waitUntilServing())
        // The health check runs on the host the module runs on: its own hostname.
        let playbook = try Self.prepare(rollout, healthCheck: #"test "$(hostname)" = {{ inventory_hostname }}"#)

        // Check mode: the plan, nothing run.
        let check = try await Self.ansiblePlaybook(rollout, playbook, ["--check"])
        let checked = AnsibleTranscript(parsing: check.stdout)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        for host in ["h1", "h2"] {
            #expect(checked.recap[host]?.failed == 0 && checked.recap[host]?.changed == 2, "\(host): \(checked.recap)\n\(check.stdout)")
            let planned = try Self.returned(rollout, host: host == "h1" ? 1 : 2)
            let packages = planned["packages"] as? [[String: Any]] ?? []
            #expect(packages.count == 1 && packages.first?["name"] as? String == "lab-a" && packages.first?["from"] as? String == "1.0"
                    && packages.first?["to"] as? String == "2.0" && packages.first?["outcome"] is NSNull, "\(planned)")
            #expect(planned["run"] is NSNull, "\(planned)")
        }
        for host in 1...2 {
            #expect(try rollout.labA(onHost: host) == "ii 1.0")
            let ran = try await Self.runs(rollout, host: host).filter { $0["observed"] as? Bool == false }
            #expect(ran.isEmpty, "check mode ran something on h\(host): \(ran)")
        }

        let result = try await Self.ansiblePlaybook(rollout, playbook)
        let transcript = AnsibleTranscript(parsing: result.stdout)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for host in ["h1", "h2"] {
            let recap = transcript.recap[host]
            #expect(recap?.ok == 2 && recap?.changed == 2 && recap?.failed == 0 && recap?.unreachable == 0, "\(host): \(String(describing: recap))\n\(result.stdout)")
        }
        // serial: 1: h1's batch, both tasks, before h2's.
        let h1Done = try #require(result.stdout.range(of: "changed: [h1]"), "\(result.stdout)")
        let h2First = try #require(result.stdout.range(of: "changed: [h2]"), "\(result.stdout)")
        #expect(h1Done.lowerBound < h2First.lowerBound)
        #expect(result.stdout.components(separatedBy: "TASK [Upgrade through installtop]").count == 3, "one batch a host:\n\(result.stdout)")

        for host in 1...2 {
            #expect(try rollout.labA(onHost: host) == "ii 2.0")
            #expect(try rollout.hosts.root(host).audit().isEmpty)
            let run = try #require(try await Self.runs(rollout, host: host).first { $0["confirm"] is [String: Any] }, "h\(host): no armed run")
            let window = try #require(run["confirm"] as? [String: Any])
            #expect(window["state"] as? String == "confirmed", "h\(host): \(window)")

            let returned = try Self.returned(rollout, host: host)
            #expect(returned["changed"] as? Bool == true && returned["confirmed"] as? Bool == true, "\(returned)")
            #expect((returned["run"] as? NSNumber)?.intValue == (run["run"] as? NSNumber)?.intValue, "h\(host): \(returned) vs \(run)")
            #expect(returned["result"] as? String == "succeeded" && returned["reboot_required"] as? Bool == false, "\(returned)")
            #expect((returned["exit_status"] as? NSNumber)?.intValue == 0, "\(returned)")
            #expect(((returned["health_check"] as? [String: Any])?["rc"] as? NSNumber)?.intValue == 0, "\(returned)")
            let packages = returned["packages"] as? [[String: Any]] ?? []
            #expect(packages.count == 1, "\(returned)")
            let labA = try #require(packages.first)
            #expect(labA["name"] as? String == "lab-a" && labA["action"] as? String == "upgrade", "\(labA)")
            #expect(labA["from"] as? String == "1.0" && labA["to"] as? String == "2.0", "\(labA)")
            #expect(labA["outcome"] as? String == "succeeded" && (labA["result_code"] as? NSNumber)?.intValue == 2
                    && labA["hresult"] as? String == "0x00000000", "\(labA)")
            // The history's account of the same package.
            let recorded = (run["packages"] as? [[String: Any]])?.first
            #expect(recorded?["oldVersion"] as? String == "1.0" && recorded?["newVersion"] as? String == "2.0"
                    && recorded?["result"] as? String == "succeeded", "\(run)")
        }

        // Nothing left to upgrade: ok, not changed.
        let again = try await Self.ansiblePlaybook(rollout, playbook)
        let second = AnsibleTranscript(parsing: again.stdout)
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        for host in ["h1", "h2"] {
            #expect(second.recap[host]?.ok == 2 && second.recap[host]?.changed == 1 && second.recap[host]?.failed == 0,
                    "the upgrade is ok, not changed (the copy of its new result is): \(host): \(second.recap)\n\(again.stdout)")
        }
        for host in 1...2 { #expect(try rollout.labA(onHost: host) == "ii 2.0") }
        #expect(HostPackageFingerprint().changes(since: machine).isEmpty, "the machine's own packages changed")
    }

    @Test("""
        The canary's health check fails: h1's run is armed (into its engine's history, which the module found), not kept, \
        reverted at once by the module (lab-a back at 1.0, the window reverted in h1's engine's history), the task fails with why (recap failed=1), and the play stops \
        before h2's batch (h2 untouched at 1.0, no run in its history)
        """)
    func canaryFailsAndTheWavesStop() async throws {
        let toolchain = try? AnsibleToolchain.locate()
        try #require(toolchain != nil, "ansible-core is not installed (Scripts/install-prerequisites test makes .build/ansible-venv)")
        let rollout = try RolloutHosts(count: 2, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        #expect(await rollout.hosts.waitUntilServing())
        // No history_db: the module records the armed run into the engine's history, which it asks installtop for.
        let playbook = try Self.prepare(rollout, healthCheck: #"test "$(hostname)" != h1"#, namingHistory: false)

        let result = try await Self.ansiblePlaybook(rollout, playbook)
        let transcript = AnsibleTranscript(parsing: result.stdout)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(transcript.recap["h1"]?.failed == 1 && transcript.recap["h1"]?.ok == 0, "\(transcript.recap)\n\(result.stdout)")
        #expect(transcript.recap["h2"] == nil || transcript.recap["h2"]?.ok == 0, "h2's batch never started: \(transcript.recap)\n\(result.stdout)")
        // Why, and how installtop ended it, in the task's message.
        #expect(result.stdout.contains(" not kept: the health check `test ") && result.stdout.contains("failed (exit 1); installtop: run ")
                && result.stdout.contains(": reverted at "),
                "\(result.stdout)")

        #expect(try rollout.labA(onHost: 1) == "ii 1.0")
        #expect(try rollout.hosts.root(1).audit().isEmpty)
        let armed = try #require(try await Self.runs(rollout, host: 1).first { $0["confirm"] is [String: Any] }, "h1: no armed run")
        let window = try #require(armed["confirm"] as? [String: Any])
        #expect(window["state"] as? String == "reverted", "\(window)")
        #expect(armed["undoneBy"] is NSNumber, "\(armed)")

        #expect(try rollout.labA(onHost: 2) == "ii 1.0")
        let h2Runs = try await Self.runs(rollout, host: 2)
        #expect(!h2Runs.contains { $0["kind"] as? String == "apt" && $0["observed"] as? Bool == false }, "\(h2Runs)")
    }

    @Test("""
        Without confirm (and without history_db) the module's job runs in each host's engine: serial: 1 upgrades h1 then h2 (recap changed), \
        each engine lists the module's job succeeded, its history holds the module's run, and dpkg has lab-a 2.0
        """)
    func withoutConfirmTheEngineRunsIt() async throws {
        let toolchain = try? AnsibleToolchain.locate()
        try #require(toolchain != nil, "ansible-core is not installed (Scripts/install-prerequisites test makes .build/ansible-venv)")
        let rollout = try RolloutHosts(count: 2, failing: nil, gated: [], history: true)
        defer { rollout.tearDown() }
        #expect(await rollout.hosts.waitUntilServing())
        // No history_db: the engine takes the job whatever it records into, and the module reads the run from it.
        let playbook = try Self.prepare(rollout, healthCheck: nil, namingHistory: false)

        let result = try await Self.ansiblePlaybook(rollout, playbook)
        let transcript = AnsibleTranscript(parsing: result.stdout)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        for host in 1...2 {
            let name = "h\(host)"
            #expect(transcript.recap[name]?.ok == 2 && transcript.recap[name]?.changed == 2 && transcript.recap[name]?.failed == 0,
                    "\(transcript.recap)\n\(result.stdout)")
            #expect(try rollout.labA(onHost: host) == "ii 2.0")
            let returned = try Self.returned(rollout, host: host)
            let stderr = (returned["stderr_lines"] as? [String] ?? []).joined(separator: "\n")
            #expect(stderr.contains("runs in the machine's engine"), "\(returned)")
            let job = try #require((returned["job"] as? NSNumber)?.intValue, "\(returned)")
            let jobs = try rollout.hosts.fleet.ownJobs(onHost: host)
            let engineJob = jobs.first { ($0["job"] as? NSNumber)?.intValue == job }
            #expect((engineJob?["name"] as? String)?.hasPrefix("apt upgrade") == true && engineJob?["state"] as? String == "succeeded",
                    "job \(job) in \(jobs)")
            let run = try #require(try await Self.runs(rollout, host: host).first { $0["observed"] as? Bool == false }, "\(name): no run")
            #expect((returned["run"] as? NSNumber)?.intValue == (run["run"] as? NSNumber)?.intValue, "\(returned) vs \(run)")
            #expect(run["confirm"] is NSNull, "\(run)")
            let labA = (returned["packages"] as? [[String: Any]])?.first
            #expect(labA?["name"] as? String == "lab-a" && labA?["from"] as? String == "1.0" && labA?["to"] as? String == "2.0"
                    && labA?["outcome"] as? String == "succeeded" && (labA?["result_code"] as? NSNumber)?.intValue == 2, "\(returned)")
        }
    }

    @Test("""
        A job that fails fails the task with installtop's words: h1's lab-a 2.0 postinst exits 1, the task fails naming \
        lab-a and dpkg's reason (recap failed=1), and what the module returned says the package failed with WUA's code
        """)
    func aFailedJobFailsTheTask() async throws {
        let toolchain = try? AnsibleToolchain.locate()
        try #require(toolchain != nil, "ansible-core is not installed (Scripts/install-prerequisites test makes .build/ansible-venv)")
        let rollout = try RolloutHosts(count: 1, failing: 1, gated: [], history: true)
        defer { rollout.tearDown() }
        #expect(await rollout.hosts.waitUntilServing())
        let playbook = try Self.prepare(rollout, healthCheck: nil)

        let result = try await Self.ansiblePlaybook(rollout, playbook)
        let transcript = AnsibleTranscript(parsing: result.stdout)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(transcript.recap["h1"]?.failed == 1 && transcript.recap["h1"]?.ok == 0, "\(transcript.recap)\n\(result.stdout)")
        // The task's result as Ansible printed it: `fatal: [h1]: FAILED! => {…}`.
        let marker = "fatal: [h1]: FAILED! => "
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix(marker) }, "\(result.stdout)")
        let failed = try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst(marker.count).utf8)) as? [String: Any], "\(line)")
        #expect(failed["msg"] as? String == "lab-a: installed lab-a package post-installation script subprocess returned error exit status 1",
                "\(failed)")
        #expect(failed["result"] as? String == "failed" && (failed["exit_status"] as? NSNumber)?.intValue == 1, "\(failed)")
        let labA = (failed["packages"] as? [[String: Any]])?.first
        #expect(labA?["name"] as? String == "lab-a" && labA?["outcome"] as? String == "failed" && (labA?["result_code"] as? NSNumber)?.intValue == 4
                && labA?["hresult"] as? String == "0x8024200B" && labA?["from"] as? String == "1.0" && labA?["to"] as? String == "2.0", "\(failed)")
        let run = try #require(try await Self.runs(rollout, host: 1).first { $0["observed"] as? Bool == false }, "no run")
        #expect(run["result"] as? String == "failed" && (failed["run"] as? NSNumber)?.intValue == (run["run"] as? NSNumber)?.intValue, "\(failed) vs \(run)")
    }
}
