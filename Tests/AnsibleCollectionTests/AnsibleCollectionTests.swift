import APTTestSupport
import FleetTestSupport
import Foundation
import Testing

/// The Ansible collection in `Ansible/ansible_collections/installtop/fleet` (issue 59,
/// Documentation/ANSIBLE-MODULE.md) without any host: its module's pure parts under pytest, its
/// documentation as `ansible-doc` renders it, its options as Ansible validates them, and the
/// example playbook's syntax. The run on namespace hosts is
/// `Tests/MonitorEndToEndTests/AnsibleModuleEndToEndTests.swift`.
@Suite("The Ansible collection: module, documentation, example playbook")
struct AnsibleCollectionTests {
    static let toolchain = try? AnsibleToolchain.locate()
    static let collections = AnsibleToolchain.packageRoot + "/Ansible"
    static let collection = collections + "/ansible_collections/installtop/fleet"

    /// A folder for Ansible's own files (its home, temporary folders, an empty configuration),
    /// removed by `body`'s caller: nothing of ~/.ansible or /etc/ansible is read or written.
    private static func withAnsibleFolder<Value>(_ body: (String, [String: String]) async throws -> Value) async throws -> Value {
        let folder = FileManager.default.temporaryDirectory.appending(path: "itop-collection-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let environment = [
            "ANSIBLE_COLLECTIONS_PATH": collections, "ANSIBLE_HOME": folder + "/home", "ANSIBLE_LOCAL_TEMP": folder + "/local-tmp",
            "ANSIBLE_REMOTE_TEMP": folder + "/remote-tmp", "ANSIBLE_CONFIG": folder + "/none.cfg", "ANSIBLE_NOCOLOR": "1",
            "ANSIBLE_DEPRECATION_WARNINGS": "0", "LC_ALL": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
        ]
        return try await body(folder, environment)
    }

    @Test("every pytest test of Tests/AnsibleModulePytest passes (options to command lines, installtop's JSON lines and plans to results)")
    func pytest() async throws {
        let folder = AnsibleToolchain.packageRoot + "/Tests/AnsibleModulePytest"
        // No __pycache__ beside the module or the tests, and no .pytest_cache.
        let result = try await TestCommand.runOnOwnThread(
            ["/usr/bin/python3", "-m", "pytest", "-q", "-p", "no:cacheprovider", "--color=no", folder],
            environment: ["PYTHONDONTWRITEBYTECODE": "1"])
        #expect(result.status == 0, "pytest failed (status \(result.status)):\n\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(" passed"), "pytest ran no test:\n\(result.stdout)")
    }

    @Test("ansible-doc renders the module's documentation: every option, the examples and what it returns",
          .enabled(if: toolchain != nil, "ansible-core is not installed (Scripts/install-prerequisites test makes .build/ansible-venv)"))
    func ansibleDoc() async throws {
        let toolchain = try #require(Self.toolchain)
        let doc = (toolchain.ansible as NSString).deletingLastPathComponent + "/ansible-doc"
        try await Self.withAnsibleFolder { _, environment in
            let text = try await FleetCommand.run([doc, "installtop.fleet.job"], environment: environment, timeout: .seconds(300))
            #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
            #expect(!text.stderr.contains("ERROR"), "\(text.stderr)")
            for word in ["MODULE installtop.fleet.job", "confirm", "health_check", "EXAMPLES", "RETURN VALUES", "reboot_required"] {
                #expect(text.stdout.contains(word), "ansible-doc's page lacks \(word):\n\(text.stdout)")
            }
            let json = try await FleetCommand.run([doc, "--json", "installtop.fleet.job"], environment: environment, timeout: .seconds(300))
            #expect(json.status == 0, "\(json.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
            let module = try #require(object["installtop.fleet.job"] as? [String: Any], "\(object.keys)")
            let options = try #require((module["doc"] as? [String: Any])?["options"] as? [String: Any])
            #expect(Set(options.keys) == ["tool", "state", "packages", "confirm", "checks", "checks_dir", "revert_on_regression", "health_check",
                                          "health_check_timeout", "apt_config", "history_db", "socket", "installtop"])
            let returned = try #require(module["return"] as? [String: Any])
            #expect(Set(["run", "packages", "reboot_required", "result", "confirmed", "exit_status"]).isSubset(of: returned.keys))
        }
    }

    @Test("Ansible validates the options against the argument_spec before anything runs: an unknown state, present without packages, a health check without confirm",
          .enabled(if: toolchain != nil, "ansible-core is not installed (Scripts/install-prerequisites test makes .build/ansible-venv)"),
          arguments: [
              ("state=sideways", "value of state must be one of: upgraded, full_upgraded, present, absent, got: sideways"),
              ("state=present", "state is present but all of the following are missing: packages"),
              ("health_check=true", "missing parameter(s) required by 'health_check': confirm"),
              ("colour=red", "Unsupported parameters for (installtop.fleet.job) module: colour"),
          ])
    func argumentSpec(arguments: String, refusal: String) async throws {
        let toolchain = try #require(Self.toolchain)
        let python = (toolchain.ansible as NSString).deletingLastPathComponent + "/python3"
        try await Self.withAnsibleFolder { _, environment in
            // The module is run on this machine (`-c local`) and stops in AnsibleModule's
            // validation: installtop is never started (`installtop` names a program that is not there).
            let result = try await FleetCommand.run(
                [toolchain.ansible, "localhost", "-i", "localhost,", "-c", "local", "-m", "installtop.fleet.job",
                 "-a", arguments + " installtop=/nonexistent/installtop", "-e", "ansible_python_interpreter=\(python)"],
                environment: environment, timeout: .seconds(300))
            #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("FAILED!") && result.stdout.contains(refusal), "\(result.stdout)\(result.stderr)")
        }
    }

    @Test("the example playbook (waves: serial 1, 30 %, 100 %) passes ansible-playbook --syntax-check",
          .enabled(if: toolchain != nil, "ansible-core is not installed (Scripts/install-prerequisites test makes .build/ansible-venv)"))
    func examplePlaybook() async throws {
        let toolchain = try #require(Self.toolchain)
        let playbook = Self.collection + "/playbooks/patch-in-waves.yml"
        try await Self.withAnsibleFolder { folder, environment in
            try "[patch_night]\nweb1\nweb2\nweb3\n".write(toFile: folder + "/hosts.ini", atomically: true, encoding: .utf8)
            let result = try await FleetCommand.run([toolchain.playbook, "--syntax-check", "-i", folder + "/hosts.ini", playbook],
                                                    environment: environment, timeout: .seconds(300))
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(result.stdout.contains("playbook: \(playbook)"), "\(result.stdout)")
            let text = try String(contentsOfFile: playbook, encoding: .utf8)
            #expect(text.contains("installtop.fleet.job:") && text.contains("confirm:") && text.contains("\"30%\""), "\(text)")
        }
    }

    @Test("ansible-galaxy builds the collection from galaxy.yml: installtop-fleet-1.0.0.tar.gz with the module, the playbook, the README and meta/runtime.yml",
          .enabled(if: toolchain != nil, "ansible-core is not installed (Scripts/install-prerequisites test makes .build/ansible-venv)"))
    func galaxyBuild() async throws {
        let toolchain = try #require(Self.toolchain)
        let galaxy = (toolchain.ansible as NSString).deletingLastPathComponent + "/ansible-galaxy"
        try await Self.withAnsibleFolder { folder, environment in
            let built = try await FleetCommand.run([galaxy, "collection", "build", Self.collection, "--output-path", folder + "/out"],
                                                   environment: environment, timeout: .seconds(300))
            #expect(built.status == 0, "\(built.stdout)\(built.stderr)")
            let tarball = folder + "/out/installtop-fleet-1.0.0.tar.gz"
            let listed = try await FleetCommand.run(["/usr/bin/tar", "tzf", tarball], timeout: .seconds(60))
            #expect(listed.status == 0, "\(listed.stderr)")
            let files = Set(listed.stdout.split(separator: "\n").map(String.init))
            #expect(Set(["MANIFEST.json", "FILES.json", "README.md", "meta/runtime.yml", "plugins/modules/job.py",
                         "playbooks/patch-in-waves.yml"]).isSubset(of: files), "\(files.sorted())")
        }
    }
}
