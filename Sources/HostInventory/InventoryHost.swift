/// One host to reach, as the inventory says: its name and how ssh gets there.
public struct InventoryHost: Sendable, Hashable {
    /// The inventory name: what messages show, and ssh's destination.
    public var name: String
    /// `ansible_host` (or `ansible_ssh_host`): the address ssh connects to instead of `name`.
    public var address: String?
    /// `ansible_port` (or `ansible_ssh_port`).
    public var port: String?
    /// `ansible_user` (or `ansible_ssh_user`).
    public var user: String?

    public init(name: String, address: String? = nil, port: String? = nil, user: String? = nil) {
        self.name = name
        self.address = address
        self.port = port
        self.user = user
    }

    /// The host `name` of `inventory` with its variables in force.
    public init(name: String, in inventory: Inventory) {
        let variables = inventory.variables(of: name)
        self.init(name: name, address: variables["ansible_host"] ?? variables["ansible_ssh_host"],
                  port: variables["ansible_port"] ?? variables["ansible_ssh_port"],
                  user: variables["ansible_user"] ?? variables["ansible_ssh_user"])
    }

    /// ssh's options for it: `-o HostName=ADDRESS`, `-p PORT`, `-l USER`, each when set.
    public var sshOptions: [String] {
        var options: [String] = []
        if let address { options += ["-o", "HostName=\(address)"] }
        if let port { options += ["-p", port] }
        if let user { options += ["-l", user] }
        return options
    }
}
