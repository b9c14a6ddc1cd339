import EngineDaemon
import InstallEngine

/// The `installtop enroll` a fix names for one host, with the options the operator gave that
/// change how a host is reached or set up (`--ssh-config`, `--ssh-option`, `--remote-command`,
/// `--sudo`, `--apt-config`), so that it works as printed where the check did:
/// `installtop enroll --host h1 --ssh-config /work/trial/ssh/config`.
struct EnrollCommandLine {
    let reaching: HostsOptions
    let setup: HostSetupOptions

    /// The command for `host`, each word quoted for sh where it needs it.
    func command(forHost host: String) -> String {
        var words = ["installtop", "enroll", "--host", host]
        if let config = reaching.sshConfig { words += ["--ssh-config", config] }
        for option in reaching.sshOptions { words += ["--ssh-option", option] }
        if reaching.remoteCommand != SSHCommand.defaultRemoteCommand { words += ["--remote-command", reaching.remoteCommand] }
        if setup.sudo { words.append("--sudo") }
        if let aptConfig = setup.aptConfig { words += ["--apt-config", aptConfig] }
        return words.map(ShellQuoting.word).joined(separator: " ")
    }
}
