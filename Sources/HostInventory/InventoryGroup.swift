/// One group of an inventory: the hosts named in it, its child groups and its variables.
public struct InventoryGroup: Sendable, Hashable {
    public var name: String
    /// Hosts named directly in the group, in the order the inventory gives them.
    public var hosts: [String] = []
    /// Groups whose hosts are this group's too (`[name:children]`, `children:`).
    public var children: [String] = []
    /// `[name:vars]`, `vars:`: every value as text.
    public var variables: [String: String] = [:]

    public init(name: String) {
        self.name = name
    }
}
