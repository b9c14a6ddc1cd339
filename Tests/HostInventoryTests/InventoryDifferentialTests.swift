import FleetTestSupport
import Foundation
import HostInventory
import Testing

/// The same inventories and patterns through Ansible's own InventoryManager (ansible-core of
/// the test toolchain, one Python process per inventory): the hosts, their order, the ssh
/// variables in force and what each `--limit` pattern selects must match ours.
@Suite("Inventory against ansible-core")
struct InventoryDifferentialTests {
    static let toolchain = try? AnsibleToolchain.locate()

    static let patterns = ["all", "web2", "db", "prod:!web2", "web*:&prod", "db,top1", "!db", "!web:db0?:top1", "ungrouped", "nomatch"]

    /// Asks ansible-core: `{"order": [...], "hosts": {name: {ansible_host…}}, "patterns": {p: [...]}}`.
    static let probe = """
        import json, sys
        from ansible.parsing.dataloader import DataLoader
        from ansible.inventory.manager import InventoryManager
        from ansible.inventory.helpers import get_group_vars
        from ansible.utils.vars import combine_vars
        inventory = InventoryManager(loader=DataLoader(), sources=[sys.argv[1]])
        hosts = {}
        for host in inventory.get_hosts("all"):
            variables = combine_vars(get_group_vars(host.get_groups()), host.get_vars())
            hosts[host.name] = {k: str(variables[k]) for k in ("ansible_host", "ansible_port", "ansible_user") if k in variables}
        patterns = {}
        for pattern in sys.argv[2:]:
            inventory.subset(pattern)
            patterns[pattern] = [h.name for h in inventory.get_hosts("all")]
            inventory.subset(None)
        print(json.dumps({"order": [h.name for h in inventory.get_hosts("all")], "hosts": hosts, "patterns": patterns}))
        """

    @Test("hosts, order, ssh variables and --limit selections equal ansible-core's",
          .enabled(if: toolchain != nil, "ansible-core is not installed (Scripts/install-prerequisites test makes .build/ansible-venv)"),
          arguments: [(InventoryParsingTests.ini, "hosts.ini"), (InventoryParsingTests.yaml, "hosts.yaml")])
    func sameAsAnsible(text: String, name: String) async throws {
        let toolchain = try #require(Self.toolchain)
        let folder = FileManager.default.temporaryDirectory.appending(path: "itop-inventory-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        try Self.probe.write(toFile: folder + "/probe.py", atomically: true, encoding: .utf8)
        // The venv's python carries ansible-core; `ansible` is a script of that python.
        let python = (toolchain.ansible as NSString).deletingLastPathComponent + "/python3"
        let result = try await FleetCommand.run([python, folder + "/probe.py", folder + "/" + name] + Self.patterns,
                                                environment: ["ANSIBLE_HOME": folder + "/ansible-home", "ANSIBLE_LOCAL_TEMP": folder + "/tmp",
                                                              "ANSIBLE_CONFIG": folder + "/none.cfg"],
                                                timeout: .seconds(300))
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let inventory = try Inventory.parse(text, path: name)

        #expect(inventory.hostNames == object["order"] as? [String])
        let hosts = try #require(object["hosts"] as? [String: [String: String]])
        for host in inventory.hostNames {
            let ours = InventoryHost(name: host, in: inventory)
            let theirs = hosts[host] ?? [:]
            #expect(ours == InventoryHost(name: host, address: theirs["ansible_host"], port: theirs["ansible_port"], user: theirs["ansible_user"]),
                    "\(host): ansible says \(theirs)")
        }
        let patterns = try #require(object["patterns"] as? [String: [String]])
        for pattern in Self.patterns {
            #expect(try HostPattern.select(pattern, from: inventory) == patterns[pattern], "--limit \(pattern)")
        }
    }
}
