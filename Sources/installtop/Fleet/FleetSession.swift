import InstallEngine

/// One `installtop ansible`: ansible-playbook found and checked, its plugin written out, then
/// the run as one driver session on the usual run (monitor, plain lines or JSON).
struct FleetSession {
    let executable: String?
    let arguments: [String]
    let options: RunOptions

    func run() -> ExitStatus {
        let playbook: AnsiblePlaybook
        do {
            playbook = AnsiblePlaybook(path: try AnsiblePlaybook.find(executable), arguments: arguments)
            _ = try playbook.check()
        } catch {
            StandardOutput.stderr.line("installtop: ansible: nothing was run:\n\(error.message)")
            return .invalidUsage
        }
        let folder: FleetPluginFolder
        do {
            folder = try FleetPluginFolder.create()
        } catch {
            StandardOutput.stderr.line("installtop: cannot write the Ansible plugin: \(error.localizedDescription)")
            return .failed
        }
        defer { folder.remove() }
        return RunSession(jobs: [], sessions: [playbook.driver(pluginFolder: folder.path)], options: options).run()
    }
}
