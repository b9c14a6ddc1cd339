#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallEngine
import Synchronization

/// The `FleetJobPlanner` of Ansible: the playbook checked with `--list-hosts`, then run with
/// installtop's callback plugin, written once to a private folder that `removeFiles()` deletes.
final class AnsibleJobPlanner: FleetJobPlanner {
    /// The ansible-playbook to run; `nil` finds it on `PATH`.
    private let executable: String?
    private let folder = Mutex<FleetPluginFolder?>(nil)

    init(executable: String? = nil) {
        self.executable = executable
    }

    func driver(for job: FleetJob) throws -> any SessionDriver {
        let playbook = AnsiblePlaybook(path: try AnsiblePlaybook.find(executable), arguments: job.commandArguments)
        _ = try playbook.check()
        let folder = try self.folder.withLock { folder throws -> FleetPluginFolder in
            if let folder { return folder }
            let created = try FleetPluginFolder.create()
            folder = created
            return created
        }
        return playbook.driver(pluginFolder: folder.path)
    }

    /// Deletes the plugin's folder; call it when no run can still start.
    func removeFiles() {
        folder.withLock { folder in
            folder?.remove()
            folder = nil
        }
    }
}
