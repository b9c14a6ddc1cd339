import HostInventory
import Testing

/// Reading Ansible inventories, INI and YAML, as far as reaching hosts needs: groups, children,
/// ranges, and the variables that become ssh's options, with a host's own beating its groups'.
@Suite("Inventory: INI and YAML inventories")
struct InventoryParsingTests {
    static let ini = """
        # ungrouped first
        top1 ansible_host=10.0.0.1
        [web]
        web[1:3] ansible_user=deploy
        web-extra:2222

        [db]
        db[01:02] ansible_host="10.0.1.5"

        [prod:children]
        web
        db

        [prod:vars]
        ansible_user=ops
        ansible_port=22

        [web:vars]
        ansible_port=2200
        """

    static let yaml = """
        all:
          hosts:
            top1:
              ansible_host: 10.0.0.1
          children:
            prod:
              vars:
                ansible_user: ops
                ansible_port: 22
              children:
                web:
                  vars:
                    ansible_port: 2200
                  hosts:
                    web[1:3]:
                      ansible_user: deploy
                    web-extra:
                      ansible_port: 2222
                db:
                  hosts:
                    db[01:02]:
                      ansible_host: 10.0.1.5
        """

    @Test("INI and YAML forms of the same inventory read alike: hosts in order, groups through children, variables by depth", arguments: [
        (ini, "hosts.ini"), (yaml, "hosts.yaml"), (yaml, "hosts"),
    ])
    func sameInventory(text: String, path: String) throws {
        let inventory = try Inventory.parse(text, path: path)
        #expect(inventory.hostNames == ["top1", "web1", "web2", "web3", "web-extra", "db01", "db02"])
        #expect(inventory.hosts(of: "prod") == ["web1", "web2", "web3", "web-extra", "db01", "db02"])
        #expect(inventory.hosts(of: "ungrouped") == ["top1"])
        #expect(inventory.hosts(of: "nosuchgroup").isEmpty)
        #expect(InventoryHost(name: "top1", in: inventory) == InventoryHost(name: "top1", address: "10.0.0.1"))
        // web is deeper than prod: its port wins; the host's own user beats both.
        #expect(InventoryHost(name: "web2", in: inventory) == InventoryHost(name: "web2", port: "2200", user: "deploy"))
        #expect(InventoryHost(name: "web-extra", in: inventory) == InventoryHost(name: "web-extra", port: "2222", user: "ops"))
        #expect(InventoryHost(name: "db02", in: inventory).sshOptions == ["-o", "HostName=10.0.1.5", "-p", "22", "-l", "ops"])
    }

    @Test("ranges: numbers keep their leading zeros, steps, letters")
    func ranges() throws {
        let inventory = try Inventory.parse("[g]\nn[08:10]\ns[1:5:2]\nx[a:c]y\n", path: "i")
        #expect(inventory.hostNames == ["n08", "n09", "n10", "s1", "s3", "s5", "xay", "xby", "xcy"])
    }

    @Test("what cannot be read is said with its file and line", arguments: [
        ("[web\nh1\n", "hosts.ini:1: a section header ends with ]"),
        ("[web:hosts]\nh1\n", "hosts.ini:1: [web:hosts]: a section is [group], [group:vars] or [group:children], not :hosts"),
        ("[web]\nh1 user\n", "hosts.ini:2: user: host variables are written key=value"),
        ("[web]\nh[3:1]\n", "hosts.ini:2: h[3:1]: the range ends before it starts"),
        ("[web]\nh1 a='b\n", "hosts.ini:2: a quote is not closed: h1 a='b"),
    ])
    func errors(text: String, message: String) {
        #expect(throws: InventoryError.self) { try Inventory.parse(text, path: "hosts.ini") }
        do {
            _ = try Inventory.parse(text, path: "hosts.ini")
        } catch {
            #expect(error.description == message)
        }
    }

    /// The texts Yams 6.2.2 gave for these inventories, which YAMLNodes keeps byte for byte.
    @Test("YAML that cannot be composed is refused with the parser's text, as Yams wrote it", arguments: [
        ("all:\n  hosts:\n    web1: {ansible_host: 10.0.0.1\n",
         "i.yml: not YAML: 4:1: error: parser: while parsing a flow mapping in line 3, column 11\n"
            + "did not find expected ',' or '}':\n    web1: {ansible_host: 10.0.0.1\n^"),
        ("all:\n  hosts:\n    web1:\n    web2:\n    web1:\n",
         "i.yml: not YAML: Parser: expected all keys to be unique but found the following duplicated key(s): 'web1'.\n"
            + "Context:\nall:\n  hosts:\n    web1:\n    web2:\n    web1:\n in line 3, column 5\n"),
    ])
    func yamlSyntaxErrors(text: String, message: String) {
        do {
            _ = try Inventory.parse(text, path: "i.yml")
            Issue.record("no error")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test("a YAML group that is not hosts, vars or children is refused with its line")
    func yamlErrors() {
        do {
            _ = try Inventory.parse("all:\n  hostz:\n    a:\n", path: "i.yml")
            Issue.record("no error")
        } catch {
            #expect(error.description == "i.yml:2: group all: hostz is not one of hosts, vars, children")
        }
    }
}
