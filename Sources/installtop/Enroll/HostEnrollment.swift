import EngineDaemon

/// Enrolls one host: looks at what it has (`HostSetupScript.probe`), runs the steps it lacks
/// (`HostSetupScript.setup`, the package fed through ssh only when the host lacks this version),
/// then checks the board's own link to its engine. Says each step as it goes, through `say`.
///
/// `say` gets each step, where it is and its words: `EnrollCommand` makes them a line
/// (`package: done: installtop 0.2.0 installed`) or a host's bar on a terminal.
struct HostEnrollment: Sendable {
    let command: SSHCommand
    let options: HostSetupOptions
    let package: EnrollPackage
    /// What starts the engine instead of the unit (`--engine-command`); `nil` for the unit.
    let engineCommand: String?

    /// How long the steps may take on a host, the copy and apt's downloads included.
    static let setupDeadline: Duration = .seconds(1800)

    /// Runs the steps; `say` gets each step's news for this host.
    func run(say: (EnrollStep, EnrollStepState, String) -> Void) -> EnrollOutcome {
        let host = command.host
        let found: HostFacts
        do {
            found = try HostFacts.probe(command, options: options)
        } catch {
            return .unreachable(reason: error.reason)
        }
        if let problem = found.aptProblem {
            return .failed(step: .package, text: "apt cannot read its configuration", words: [problem],
                           fix: "repair apt on \(host) (or give the --apt-config that names its root), then run enroll again")
        }
        if let user = found.user, user.uid != "0" {
            return .failed(step: .package, text: "the steps would run as \(user.name) (uid \(user.uid)), not as root", words: [],
                           fix: "log in as root (ssh's User, an inventory's ansible_user=root), or give --sudo with sudo allowed without a password")
        }
        let sendsPackage = !found.hasInstalled(package.version)
        if sendsPackage {
            let had = found.package.map { " (it has \($0.version), dpkg says \($0.state))" } ?? ""
            say(.package, .begin, "copying \(package.fileName), \(Self.megabytes(package.size))\(had)")
        }
        let setup = options.scriptCommand(command, HostSetupScript.setup, arguments: [
            options.aptConfigArgument, SystemdUnit.socketPath, engineCommand ?? "", sendsPackage ? package.fileName : "",
            package.version.debian, package.version.installtop, SystemdUnit.name,
        ])
        var words: [String] = []
        var changed: [EnrollStep] = []
        var reported: [EnrollStep] = []
        var failure: EnrollOutcome?
        let ran = RemoteScriptRun(command: setup, deadline: Self.setupDeadline).run(input: sendsPackage ? package.path : nil) { line in
            switch line {
            case .step(let step, .begin, let text):
                say(step, .begin, text)
            case .step(let step, .done, let text):
                changed.append(step)
                reported.append(step)
                say(step, .done, text)
            case .step(let step, .already, let text):
                reported.append(step)
                say(step, .already, text)
            case .step(let step, .failed, let text):
                failure = .failed(step: step, text: text, words: words, fix: fix(for: step, text: text))
            case .words(let text):
                words.append(text)
            case .fact, .end, .other:
                break
            }
        }
        if let failure { return failure }
        guard ran.reachedEnd else {
            let step = EnrollStep.allCases.first { !reported.contains($0) } ?? .hooks
            let why = RemoteScriptRun.silence(ran, deadline: Self.setupDeadline)
            if ran.status == 255 { return .unreachable(reason: "during the \(step) step: \(why)") }
            return .failed(step: step, text: "the script on the host ended before its end", words: [why],
                           fix: "log in to \(host) as root (or give --sudo with sudo allowed without a password) and run enroll again")
        }
        let bridge = options.bridgeCommand(command)
        switch BoardLinkCheck.check(bridge) {
        case .success(let pid):
            say(.link, .done, "`\(bridge.remoteCommand)` over ssh reaches the engine (pid \(pid))")
        case .failure(let error):
            return .failed(step: .link, text: "`\(bridge.remoteCommand)` over ssh does not reach the engine", words: [BoardLinkCheck.words(error)],
                           fix: "give the remote command that reaches it as root: --remote-command 'sudo -n installtop bridge' (or --sudo)")
        }
        return .enrolled(changed: changed)
    }

    /// What fixes a failed step.
    private func fix(for step: EnrollStep, text: String) -> String {
        let host = command.host
        switch step {
        case .package:
            return "fix what apt names on \(host) (its sources for installtop's Depends, dpkg's lock, a package left half-way), then run enroll again"
        case .engine where text.contains("the package replaced"):
            return "once its jobs are done, `systemctl restart \(SystemdUnit.name)` on \(host) (or run enroll again, which restarts it then)"
        case .engine where text.hasPrefix("systemd does not run"):
            return "on hosts without systemd give --engine-command with what starts `installtop serve` there in the background"
        case .engine:
            return engineCommand == nil
                ? "`systemctl status \(SystemdUnit.name)` and `journalctl -u \(SystemdUnit.name)` on \(host) say why; then run enroll again"
                : "run the --engine-command on \(host) by hand and read what it says"
        case .hooks:
            return "run `installtop hooks install` on \(host) as root and read what it says"
        case .link:
            return "give the remote command that reaches the engine as root: --remote-command 'sudo -n installtop bridge' (or --sudo)"
        }
    }

    /// `12.3 MB`.
    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return "\(tenths / 10).\(tenths % 10) MB"
    }
}
