import HostInventory
import Testing

/// `--limit`: Ansible's host patterns over an inventory.
@Suite("HostPattern: --limit patterns")
struct HostPatternTests {
    let inventory: Inventory

    init() throws {
        inventory = try Inventory.parse(InventoryParsingTests.ini, path: "hosts.ini")
    }

    @Test("names, groups, wildcards, unions, intersections and exclusions select as Ansible does, in inventory order", arguments: [
        ("all", ["top1", "web1", "web2", "web3", "web-extra", "db01", "db02"]),
        ("*", ["top1", "web1", "web2", "web3", "web-extra", "db01", "db02"]),
        ("web2", ["web2"]),
        ("db", ["db01", "db02"]),
        ("prod:!web2", ["web1", "web3", "web-extra", "db01", "db02"]),
        ("web*:&prod", ["web1", "web2", "web3", "web-extra"]),
        ("db,top1", ["top1", "db01", "db02"]),
        ("!db", ["top1", "web1", "web2", "web3", "web-extra"]),
        ("!web:db0?:top1", ["top1", "db01", "db02"]),
        ("ungrouped", ["top1"]),
        ("nomatch", []),
    ])
    func select(pattern: String, expected: [String]) throws {
        #expect(try HostPattern.select(pattern, from: inventory) == expected)
    }

    @Test("an empty term and a regular expression are refused, saying why")
    func refused() {
        #expect(throws: InventoryError(source: "--limit", message: "web::db: an empty term")) { try HostPattern.select("web::db", from: inventory) }
        #expect(throws: InventoryError(source: "--limit", message: "~web.*: regular expressions are not taken; use names, groups and * wildcards")) {
            try HostPattern.select("~web.*", from: inventory)
        }
    }
}
