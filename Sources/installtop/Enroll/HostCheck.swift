import EngineDaemon

/// What `installtop hosts check` found on one host: why it could not be reached, or what it
/// lacks or has otherwise than this machine (nothing: it is ready for the board).
enum HostCheck: Sendable {
    /// `reason`: ssh's own words (or sudo's, or the remote shell's).
    case unreachable(host: String, reason: String)
    case checked(host: String, facts: HostFacts, findings: [HostFinding])

    var host: String {
        switch self {
        case .unreachable(let host, _), .checked(let host, _, _): return host
        }
    }

    /// Reachable and lacking nothing.
    var isReady: Bool {
        if case .checked(_, _, let findings) = self { return findings.isEmpty }
        return false
    }

    /// Probes the host `command` reaches (`HostFacts.probe`), then, when its engine answers
    /// there, the board's link to it (`BoardLinkCheck`).
    /// - Parameter enroll: the enroll command a fix names for the host (`EnrollCommandLine`).
    static func run(_ command: SSHCommand, options: HostSetupOptions, enroll: String, expected: ExpectedVersion = .current) -> HostCheck {
        let found: HostFacts
        do {
            found = try HostFacts.probe(command, options: options)
        } catch {
            return .unreachable(host: command.host, reason: error.reason)
        }
        let bridge = options.bridgeCommand(command)
        var link: String?
        if found.engineAnswers, case .failure(let error) = BoardLinkCheck.check(bridge) {
            link = BoardLinkCheck.words(error)
        }
        return .checked(host: command.host, facts: found,
                        findings: findings(host: command.host, facts: found, expected: expected, bridge: bridge.remoteCommand, link: link,
                                           enroll: enroll))
    }

    /// What `facts` lack against this machine, each with its fix; `link` is the board link's
    /// failure (`bridge` the remote command it ran), `nil` when it worked or was not tried;
    /// `enroll` the command that sets the host up (by default with no option of the operator's).
    static func findings(host: String, facts: HostFacts, expected: ExpectedVersion, bridge: String, link: String?,
                         enroll: String? = nil) -> [HostFinding] {
        let enroll = enroll ?? "installtop enroll --host \(host)"
        if let problem = facts.aptProblem {
            return [HostFinding(subject: "apt", text: "apt cannot read its configuration: \(problem)",
                                fix: "repair apt on \(host) (or give the --apt-config that names its root)")]
        }
        var found: [HostFinding] = []
        switch (facts.package, facts.binaryVersion) {
        case (nil, _):
            found.append(HostFinding(subject: "installtop", text: "no installtop: dpkg knows no installtop package", fix: enroll))
        case (let package?, _) where package.state.hasPrefix("r"):
            found.append(HostFinding(subject: "installtop", text: "installtop \(package.version) was removed (dpkg says \(package.state): its configuration is left)", fix: enroll))
        case (let package?, _) where package.state != "ii":
            found.append(HostFinding(subject: "installtop", text: "installtop \(package.version) is not fully installed (dpkg says \(package.state))", fix: enroll))
        case (let package?, _) where package.version != expected.debian:
            found.append(HostFinding(subject: "installtop", text: "installtop \(package.version), where this machine has \(expected.debian)", fix: enroll))
        case (_, let binary) where binary != expected.installtop:
            found.append(HostFinding(subject: "installtop", text: "installtop says \(binary ?? "nothing") (installtop --version), where \(expected.installtop) was expected",
                                     fix: enroll))
        default:
            break
        }
        if facts.engineRefusesUser {
            found.append(HostFinding(subject: "engine", text: "an engine runs on \(SystemdUnit.socketPath) but does not admit the user the check ran as (\(facts.engineWords))",
                                     fix: "check as root: log in as root or give --sudo (or let that user watch: installtop serve --watch-group GROUP)"))
        } else if !facts.engineAnswers {
            var text = "no engine answers on \(SystemdUnit.socketPath)"
            if let unit = facts.unit { text += ": \(SystemdUnit.name) is \(unit.enabled) and \(unit.active)" }
            if !facts.engineWords.isEmpty { text += " (\(facts.engineWords))" }
            found.append(HostFinding(subject: "engine", text: text,
                                     fix: "systemctl enable --now \(SystemdUnit.name) on \(host), or \(enroll)"))
        } else if let pid = facts.replacedEngine {
            found.append(HostFinding(subject: "engine", text: "\(SystemdUnit.name) runs the installtop the package replaced (pid \(pid)), not the installed one",
                                     fix: "systemctl restart \(SystemdUnit.name) on \(host) when it has no job to finish, or \(enroll), which restarts it then"))
        } else if let link {
            found.append(HostFinding(subject: "link", text: "the engine answers there, but `\(bridge)` over ssh does not reach it: \(link)",
                                     fix: "give the remote command that reaches it as root: --remote-command 'sudo -n installtop bridge' (or --sudo)"))
        }
        if !facts.hooks {
            found.append(HostFinding(subject: "hooks", text: "no hooks: apt and dpkg runs there are not reported to its engine",
                                     fix: "installtop hooks install on \(host), or \(enroll)"))
        }
        return found
    }
}
