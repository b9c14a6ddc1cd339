import EngineDaemon
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import HostInventory
import PatchPolicy

/// How a patch night reaches its policy's hosts: the inventory's own variables for each
/// (`ansible_host`, `ansible_port`, `ansible_user`), then `--ssh-config` and `--ssh-option`,
/// and the command ssh runs there (`--remote-command`).
struct PatchSSHSettings: Sendable {
    var sshConfig: String?
    var sshOptions: [String] = []
    var remoteCommand = SSHCommand.defaultRemoteCommand

    /// Each of the policy's hosts by name; a host the inventory cannot be read for again (it
    /// changed since the policy was read) gets the name alone.
    func commands(for policy: PatchPolicy) -> [String: SSHCommand] {
        let inventory = (try? String(contentsOfFile: policy.hosts.inventoryPath, encoding: .utf8))
            .flatMap { text in try? Inventory.parse(text, path: policy.hosts.inventoryPath) }
        let common = (sshConfig.map { ["-F", $0] } ?? []) + sshOptions.flatMap { ["-o", $0] }
        var commands: [String: SSHCommand] = [:]
        for name in policy.hosts.names {
            let host = inventory.map { InventoryHost(name: name, in: $0) } ?? InventoryHost(name: name)
            // The host's own settings first: ssh keeps the first value it meets for each.
            commands[name] = SSHCommand(host: name, options: host.sshOptions + common, remoteCommand: remoteCommand)
        }
        return commands
    }
}
