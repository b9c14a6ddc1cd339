import ArgumentParser
import InstallDrivers
import InstallEngine

/// `installtop ansible PLAYBOOK …`: an Ansible run across a fleet, each host a job and each
/// task an update (Documentation/ANSIBLE.md).
struct AnsibleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ansible",
        abstract: "Run an Ansible playbook across hosts: each host a job, each task an update.",
        discussion: """
            ansible-playbook runs with installtop's callback plugin beside your own callbacks \
            and ansible.cfg. Abort (a) stops at the next task boundary: running tasks finish and \
            keep their results, no new task starts (a on one host's job stops only that host); \
            a second abort interrupts ansible-playbook. Exit status, as Ansible's: 0 every task \
            succeeded, was skipped, or failed and was rescued, ignored or cleared (meta: \
            clear_host_errors), 1 a host failed or was \
            unreachable, 2 Ansible refused the playbook (not found, \
            syntax error, no host matched), 3 aborted, 4 done and a host asked for a reboot.
            """
    )

    @Argument(help: "The playbook.")
    var playbook: String

    @Option(name: [.customShort("i"), .long], help: ArgumentHelp("The inventory (as ansible-playbook -i).", valueName: "inventory"))
    var inventory: [String] = []

    @Option(help: ArgumentHelp("Limit the hosts (as ansible-playbook --limit).", valueName: "pattern"))
    var limit: String?

    @Option(help: ArgumentHelp("The ansible-playbook to run (default: the one on PATH).", valueName: "path"))
    var ansiblePlaybook: String?

    @OptionGroup var options: RunOptions

    @Argument(parsing: .postTerminator, help: "More arguments for ansible-playbook, after --.")
    var ansibleArguments: [String] = []

    func run() throws {
        let job = FleetJob(playbook: playbook, inventories: inventory, limit: limit, arguments: ansibleArguments)
        throw ExitCode(FleetSession(executable: ansiblePlaybook, job: job, options: options).run().rawValue)
    }
}
