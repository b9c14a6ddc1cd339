import FleetTestSupport
import Foundation

/// Ansible on local-connection hosts in a test folder: names that all run on this machine
/// through `ansible_connection=local` (no namespaces, no ssh), with Ansible's configuration and
/// state inside the folder, nothing from the machine's.
enum LocalAnsible {
    /// Writes `hosts.ini` (group `web`) naming `hosts`, and `ansible.cfg`; returns the
    /// environment both ansible-playbook and installtop run with.
    static func prepare(_ folder: TestFolder, hosts: [String], toolchain: AnsibleToolchain) throws -> [String: String] {
        try folder.write("hosts.ini", "[web]\n" + hosts.map { "\($0) ansible_connection=local ansible_python_interpreter='{{ ansible_playbook_python }}'" }
            .joined(separator: "\n") + "\n")
        try folder.write("ansible.cfg", """
            [defaults]
            remote_tmp = \(folder.file("ansible-remote"))
            local_tmp = \(folder.file("ansible-local"))
            retry_files_enabled = False
            check_mode_markers = True
            """)
        try FileManager.default.createDirectory(atPath: folder.file("home"), withIntermediateDirectories: true)
        return [
            "ANSIBLE_CONFIG": folder.file("ansible.cfg"), "ANSIBLE_HOME": folder.file("ansible-home"), "ANSIBLE_NOCOLOR": "1",
            "ANSIBLE_STDOUT_CALLBACK": "default", "LC_ALL": "C.UTF-8",
            // Fact gathering runs `rpm -q` when rpm is installed, and Debian's rpm keeps its
            // database in the home folder: never the machine's /root/.rpmdb.
            "HOME": folder.file("home"),
            // An async task's job files, named whole: Ansible expands `~/.ansible_async` once
            // from HOME (where the job writes) and once from the password file (where
            // async_status looks), which a private HOME sets apart.
            "ANSIBLE_ASYNC_DIR": folder.file("ansible-async"),
            "PATH": (toolchain.playbook as NSString).deletingLastPathComponent + ":"
                + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin"),
        ]
    }
}
