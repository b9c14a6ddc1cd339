import ArgumentParser
import EngineDaemon
import HostInventory
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TextBasics

/// `--host NAME` (repeatable) or `--hosts INVENTORY` with `--limit PATTERN`, and how ssh gets
/// there: the commands that reach other hosts' engines (`status`, `abort`, `cleanup`, `attach`).
struct HostsOptions: ParsableArguments {
    @Option(name: .customLong("host"), help: ArgumentHelp(
        "Reach this host's engine over ssh (`ssh HOST installtop bridge`); repeatable.", valueName: "name"))
    var names: [String] = []

    @Option(name: .customLong("hosts"), help: ArgumentHelp(
        "Reach the hosts of this Ansible inventory (INI or YAML; ansible_host, ansible_port and ansible_user are passed to ssh).",
        valueName: "inventory"))
    var inventory: String?

    @Option(help: ArgumentHelp(
        "Only the inventory's hosts this Ansible pattern selects (names, groups, * wildcards, a:b, a:&b, a:!b).",
        valueName: "pattern"))
    var limit: String?

    @Option(name: .customLong("ssh-option"), help: ArgumentHelp(
        "An option for ssh, passed as -o OPTION (ConnectTimeout=5); repeatable.", valueName: "option"))
    var sshOptions: [String] = []

    @Option(name: .customLong("ssh-config"), help: ArgumentHelp("The ssh configuration file to use (ssh -F FILE).", valueName: "file"))
    var sshConfig: String?

    @Option(help: ArgumentHelp(
        "The command ssh runs on each host; it must join stdin and stdout to the engine (commonly 'sudo -n installtop bridge').",
        valueName: "command"))
    var remoteCommand: String = SSHCommand.defaultRemoteCommand

    /// Whether any host was named: the command goes over ssh instead of to this machine's socket.
    var isRemote: Bool { !names.isEmpty || inventory != nil }

    func validate() throws {
        if limit != nil && inventory == nil { throw ValidationError("--limit selects hosts of an inventory: give --hosts INVENTORY too") }
        if remoteCommand.allSatisfy(\.isWhitespace) { throw ValidationError("--remote-command is empty") }
        if !isRemote {
            let given = [sshOptions.isEmpty ? nil : "--ssh-option", sshConfig == nil ? nil : "--ssh-config",
                         remoteCommand == SSHCommand.defaultRemoteCommand ? nil : "--remote-command"].compactMap { $0 }
            if let first = given.first { throw ValidationError("\(first) is for reaching hosts: give --host NAME or --hosts INVENTORY too") }
        }
    }

    /// Refuses `--socket` beside hosts: it names this machine's engine, and each host's socket
    /// is the remote command's to choose.
    func checkNoSocket(_ socket: SocketOption) throws {
        if isRemote && socket.socket != nil {
            throw ValidationError("--socket is this machine's engine; for the hosts' engines use --remote-command 'installtop bridge --socket PATH'")
        }
    }

    /// How to reach each host: the inventory's (after `--limit`), then the `--host` names
    /// not already among them (with the inventory's variables when it has the name), each once.
    /// - Throws: `ValidationError` (a usage error, exit 2) when the inventory cannot be read or
    ///   selects no host.
    func sshCommands() throws -> [SSHCommand] {
        var hosts: [InventoryHost] = []
        var parsed: Inventory?
        if let inventory {
            let text: String
            do {
                text = try String(contentsOfFile: inventory, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read the inventory \(inventory): \(ErrorText.reason(error))")
            }
            do {
                let read = try Inventory.parse(text, path: inventory)
                parsed = read
                let selected = try limit.map { pattern throws(InventoryError) in try HostPattern.select(pattern, from: read) } ?? read.hostNames
                hosts = selected.map { InventoryHost(name: $0, in: read) }
            } catch {
                throw ValidationError("\(error)")
            }
            if hosts.isEmpty && names.isEmpty {
                throw ValidationError(limit.map { "--limit \($0) selects no host of \(inventory)" } ?? "\(inventory) names no host")
            }
        }
        for name in names where !hosts.contains(where: { $0.name == name }) {
            hosts.append(parsed.map { $0.hostNames.contains(name) ? InventoryHost(name: name, in: $0) : InventoryHost(name: name) } ?? InventoryHost(name: name))
        }
        let common = (sshConfig.map { ["-F", $0] } ?? []) + sshOptions.flatMap { ["-o", $0] }
        // The host's own settings first: for each setting ssh keeps the first value it meets,
        // and an inventory's host variables are meant to win, as they do in Ansible.
        return hosts.map { SSHCommand(host: $0.name, options: $0.sshOptions + common, remoteCommand: remoteCommand) }
    }

    /// The one host `abort` and `cleanup` act on.
    /// - Throws: `ValidationError` (exit 2) unless exactly one host is selected.
    func singleHost() throws -> SSHCommand {
        let commands = try sshCommands()
        guard commands.count == 1 else {
            throw ValidationError("this acts on one host's job: \(commands.count) hosts are selected (\(commands.map(\.host).joined(separator: ", ")))")
        }
        return commands[0]
    }
}
