/// The hosts a policy patches: an Ansible inventory's hosts, those of `groups` only when given.
public struct PolicyHosts: Sendable, Hashable {
    /// As the policy writes it.
    public let inventory: String
    /// Absolute, or relative to the current folder: `inventory` relative to the policy's folder.
    public let inventoryPath: String
    /// Empty for every host of the inventory.
    public let groups: [String]
    /// The selected hosts in inventory order, each once.
    public let names: [String]

    public init(inventory: String, inventoryPath: String, groups: [String], names: [String]) {
        self.inventory = inventory
        self.inventoryPath = inventoryPath
        self.groups = groups
        self.names = names
    }
}
