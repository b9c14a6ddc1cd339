import EngineDaemon

/// What `HostSetupScript.probe` found on a host.
struct HostFacts: Sendable {
    /// apt's own words when `apt-config` could not read the host's configuration.
    var aptProblem: String?
    /// dpkg's state of the installtop package (`ii`, `iU`, `rc` …) and its version; `nil`
    /// when dpkg knows no installtop package.
    var package: (state: String, version: String)?
    /// What the installed `installtop --version` says; `nil` when there is none.
    var binaryVersion: String?
    /// systemctl's `is-enabled` and `is-active` of the unit; `nil` without systemd.
    var unit: (enabled: String, active: String)?
    /// Whether an engine answered on the socket, whether one runs there but keeps the user
    /// the probe ran as out, and the client's words when none answered.
    var engineAnswers = false
    var engineRefusesUser = false
    var engineWords = ""
    /// The user the script ran as: its uid and name (`0 root`); `nil` when it did not say.
    var user: (uid: String, name: String)?
    /// The unit's engine's pid when it runs an installtop dpkg has replaced since it started.
    var replacedEngine: String?
    /// Whether `installtop hooks status` says every hook file is there.
    var hooks = false

    /// Reads the `fact` lines.
    init(facts: [(key: String, value: String)]) {
        for (key, value) in facts {
            let words = value.split(separator: " ", maxSplits: 1).map(String.init)
            switch key {
            case "apt": aptProblem = value == "ok" ? nil : value
            case "package": package = words.count == 2 ? (words[0], words[1]) : nil
            case "binary": binaryVersion = value == "none" ? nil : value
            case "unit": unit = words.count == 2 ? (words[0], words[1]) : nil
            case "engine":
                engineAnswers = words.first == "yes"
                engineRefusesUser = words.first == "refuses"
                engineWords = words.count > 1 ? words[1] : ""
            case "hooks": hooks = value == "yes"
            case "replaced": replacedEngine = value
            case "user": user = (words.first ?? "", words.count > 1 ? words[1] : "")
            default: break
            }
        }
    }

    /// Whether dpkg has installtop installed at `expected`'s version, and it says so itself.
    func hasInstalled(_ expected: ExpectedVersion) -> Bool {
        package?.state == "ii" && package?.version == expected.debian && binaryVersion == expected.installtop
    }

    /// How long the probe may take on a host, connecting included.
    static let deadline: Duration = .seconds(120)

    /// Runs `HostSetupScript.probe` on the host `command` reaches, as `options` say.
    /// - Throws: `HostUnreachable` when the script said nothing (ssh failed, sudo refused, the
    ///   deadline passed).
    static func probe(_ command: SSHCommand, options: HostSetupOptions) throws(HostUnreachable) -> HostFacts {
        let probe = options.scriptCommand(command, HostSetupScript.probe,
                                          arguments: [options.aptConfigArgument, SystemdUnit.socketPath, SystemdUnit.name])
        var facts: [(key: String, value: String)] = []
        let outcome = RemoteScriptRun(command: probe, deadline: deadline).run(input: nil) { line in
            if case .fact(let key, let value) = line { facts.append((key, value)) }
        }
        // A script that found no apt says so and ends early, with its one fact.
        guard outcome.reachedEnd || facts.contains(where: { $0.key == "apt" }) else {
            throw HostUnreachable(reason: RemoteScriptRun.silence(outcome, deadline: deadline))
        }
        return HostFacts(facts: facts)
    }
}
