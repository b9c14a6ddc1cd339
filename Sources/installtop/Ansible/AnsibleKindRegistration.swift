import InstallDrivers
import InstallEngine
import InstallHistory

/// Ansible's fleet runs in installtop (`EngineHost.registry`): the kind with the callback
/// plugin this binary embeds. Its runs keep nothing for undo and leave nothing to settle.
struct AnsibleKindRegistration: KindRegistration {
    /// The ansible-playbook the kind runs; `nil` finds it on `PATH`.
    var executable: String?

    var name: String { "ansible" }

    /// Neither the history nor apt's root is the playbook's.
    func jobKind(keeping: HistoryOptions?, aptConfig: String?) -> any JobKind {
        Self.jobKind(executable: executable)
    }

    /// The kind as `installtop ansible` runs it alone, outside any manifest.
    static func jobKind(executable: String?) -> AnsibleJobKind {
        AnsibleJobKind(executable: executable, pluginFiles: DriverFiles.files.map { ($0.name, $0.text) })
    }
}
