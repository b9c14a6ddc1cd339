import Foundation

/// The files of one fleet in its run's folder: the client key, each host's key and sshd
/// configuration, the controller's `ssh_config` and `known_hosts`, the inventory and an
/// `ansible.cfg`.
struct FleetFiles: Sendable {
    let directory: String

    var clientKey: String { directory + "/id_ed25519" }
    var authorizedKeys: String { directory + "/authorized_keys" }
    var knownHosts: String { directory + "/known_hosts" }
    var sshConfig: String { directory + "/ssh_config" }
    var inventory: String { directory + "/inventory.ini" }
    var ansibleConfig: String { directory + "/ansible.cfg" }
    /// ansible's ControlPersist sockets; their masters run in the controller namespace.
    var controlPathDirectory: String { directory + "/cp" }
    var ansibleHome: String { directory + "/ansible-home" }
    var ansibleLocalTemp: String { directory + "/ansible-local" }

    func hostDirectory(_ host: FleetHost) -> String { "\(directory)/\(host.name)" }
    func hostKey(_ host: FleetHost) -> String { hostDirectory(host) + "/ssh_host_ed25519_key" }
    func sshdConfig(_ host: FleetHost) -> String { hostDirectory(host) + "/sshd_config" }
    func sshdLog(_ host: FleetHost) -> String { hostDirectory(host) + "/sshd.log" }
    /// The folder a configuration written `withDropIns` includes (`FleetHostSSHD`).
    func sshdDropInFolder(_ host: FleetHost) -> String { hostDirectory(host) + "/sshd_config.d" }
    /// Where sshd writes its pid with a configuration written `withDropIns`.
    func sshdPidFile(_ host: FleetHost) -> String { hostDirectory(host) + "/sshd.pid" }
    /// Written by the host's holder once its hostname and private /run are in place.
    func readyFile(_ host: FleetHost) -> String { hostDirectory(host) + "/ready" }

    /// The client key and one host key per host, generated at once (ed25519: milliseconds).
    func generateKeys(for hosts: [FleetHost], tools: FleetTools) throws {
        for host in hosts { try FileManager.default.createDirectory(atPath: hostDirectory(host), withIntermediateDirectories: true) }
        let keys = [clientKey] + hosts.map(hostKey)
        let children = try keys.map { key in
            try FleetChild([tools.sshKeygen, "-q", "-t", "ed25519", "-N", "", "-C", "itop-fleet", "-f", key],
                           environment: [:], stdoutPath: "/dev/null", stderrPath: key + ".err")
        }
        for (key, child) in zip(keys, children) {
            let status = child.wait(until: .now + .seconds(30)) ?? child.stop()
            guard status == 0 else { throw FleetTestError("ssh-keygen for \(key) exited \(status): \(FleetCommand.read(key + ".err"))") }
            unlink(key + ".err")
        }
    }

    /// Every configuration file, once the keys exist.
    /// - Parameter withDropIns: each sshd configuration includes its host's drop-in folder
    ///   (made here, empty) and names a pid file (`FleetHostSSHD`).
    func write(for hosts: [FleetHost], runID: String, withDropIns: Bool = false) throws {
        try FileManager.default.createDirectory(atPath: controlPathDirectory, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: clientKey + ".pub", toPath: authorizedKeys)
        var knownHostsText = ""
        var sshConfigText = ""
        for host in hosts {
            let publicKey = try String(contentsOfFile: hostKey(host) + ".pub", encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
            knownHostsText += "\(host.name),\(host.address) \(publicKey)\n"
            sshConfigText += "Host \(host.name)\n    HostName \(host.address)\n"
            if withDropIns { try FileManager.default.createDirectory(atPath: sshdDropInFolder(host), withIntermediateDirectories: true) }
            try sshdConfigText(host, withDropIns: withDropIns).write(toFile: sshdConfig(host), atomically: true, encoding: .utf8)
        }
        // `Host *` last: ssh keeps the first value it finds, and the hosts' blocks set only HostName.
        sshConfigText += """
            Host *
                User root
                IdentityFile \(clientKey)
                IdentitiesOnly yes
                UserKnownHostsFile \(knownHosts)
                GlobalKnownHostsFile /dev/null
                StrictHostKeyChecking yes
                BatchMode yes
                ConnectTimeout 5
                LogLevel ERROR

            """
        try knownHostsText.write(toFile: knownHosts, atomically: true, encoding: .utf8)
        try sshConfigText.write(toFile: sshConfig, atomically: true, encoding: .utf8)
        try inventoryText(hosts, runID: runID).write(toFile: inventory, atomically: true, encoding: .utf8)
        try ansibleConfigText.write(toFile: ansibleConfig, atomically: true, encoding: .utf8)
    }

    /// Documentation/FLEET-FACTS.md's sshd: key-only root login; `UsePAM no` (no PAM stack for a second sshd);
    /// `StrictModes no` because the keys live under world-writable /tmp. MaxStartups is raised
    /// so that ansible with many forks is not refused at the handshake. `TMPDIR` is the host's
    /// private /run: a module that a stopped play killed leaves its unpacked payload
    /// (`ansible_…_payload_*`, made where Python's tempfile says) there, never in the machine's
    /// /tmp, where two were left by every full test run. `HOME` is a private folder there too
    /// (sshd's `SetEnv` comes after the password file's home): with Debian's rpm installed,
    /// Ansible's fact gathering runs `rpm -q --whatprovides /usr/bin/apt-get`, and Debian's
    /// rpm keeps its database in `~/.rpmdb`, which it made in the machine's /root.
    ///
    /// `withDropIns`: the drop-in folder is included first, as Debian's sshd_config does, so
    /// that a drop-in's value wins; the pid file is the one a restarting script reads. Without
    /// it there is no pid file: the harness tracks its sshd by its child.
    private func sshdConfigText(_ host: FleetHost, withDropIns: Bool) -> String {
        let dropIns = withDropIns ? "Include \(sshdDropInFolder(host))/*.conf\n" : ""
        return """
        \(dropIns)Port 22
        AddressFamily inet
        ListenAddress \(host.address)
        HostKey \(hostKey(host))
        PidFile \(withDropIns ? sshdPidFile(host) : "none")
        PermitRootLogin prohibit-password
        PubkeyAuthentication yes
        AuthorizedKeysFile \(authorizedKeys)
        PasswordAuthentication no
        KbdInteractiveAuthentication no
        UsePAM no
        StrictModes no
        AllowStreamLocalForwarding yes
        PrintMotd no
        MaxStartups 200
        MaxSessions 50
        SetEnv TMPDIR=/run/ansible-tmp HOME=/run/root-home
        Subsystem sftp internal-sftp

        """
    }

    /// `ansible_remote_tmp` and `ansible_async_dir` are on the host's private /run: the hosts
    /// share the machine's /root, and a stopped play's leftovers must stay on its host and
    /// vanish with it.
    private func inventoryText(_ hosts: [FleetHost], runID: String) -> String {
        var text = "# Fleet \(runID) (FleetTestSupport): one network namespace and sshd per host.\n[fleet]\n"
        for host in hosts { text += "\(host.name) ansible_host=\(host.address)\n" }
        text += """

            [all:vars]
            ansible_user=root
            ansible_ssh_private_key_file=\(clientKey)
            ansible_ssh_common_args='-F \(sshConfig)'
            ansible_python_interpreter=/usr/bin/python3
            ansible_remote_tmp=/run/ansible-tmp
            ansible_async_dir=/run/ansible-async

            """
        return text
    }

    /// Named by `ANSIBLE_CONFIG`, so that an `ansible.cfg` in the working folder or the home
    /// folder never changes a test.
    private var ansibleConfigText: String {
        """
        [defaults]
        inventory = \(inventory)
        local_tmp = \(ansibleLocalTemp)
        host_key_checking = True
        retry_files_enabled = False
        interpreter_python = /usr/bin/python3

        [ssh_connection]
        control_path_dir = \(controlPathDirectory)

        """
    }
}
