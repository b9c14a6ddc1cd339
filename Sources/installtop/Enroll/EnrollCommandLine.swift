import EngineDaemon

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
        return words.map(Self.quoted).joined(separator: " ")
    }

    /// `word` as sh reads it back: as it is when it holds only safe characters, else in single
    /// quotes (a single quote inside as `'\''`).
    static func quoted(_ word: String) -> String {
        let safe = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "/._+-@,=:".unicodeScalars.contains($0)
        }
        return safe ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }
}
