import ArgumentParser
import EngineDaemon
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import PatchPolicy
import TextBasics

/// `installtop patch --policy FILE`: runs a patch night as the policy says
/// (Documentation/POLICY.md, `PatchNight`); with `--check` checks the policy and prints the night
/// it plans; with `--status` prints the night its stamp records.
struct PatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patch",
        abstract: "Run a patch night as a policy says, check the policy, or show the night's state.",
        discussion: """
            Without --check or --status, runs the night of the window open now: each wave's \
            hosts get an armed package job from their own engine over ssh (the gate's confirm \
            duration); once its run is armed, a host that needs a reboot (a newer kernel, \
            /run/reboot-required) is rebooted inside the window, one at a time unless the policy \
            says more, never this machine, and waited for until its engine answers with a new \
            boot; each is kept only once no check regressed and a fresh ssh login works; a host \
            not kept is undone by its own engine. The gate runs between waves; a failed gate, a \
            spent failure budget, the window's end or a rebooted host that does not come back \
            stops the night. \
            One line per step on standard output. A stamp in the state folder, written before \
            each step, makes a restarted process resume the night without patching any host \
            twice. Outside a window it says when the next one opens and does nothing. A night \
            that stopped (or finished) is over for its window; --again starts a new one in it, \
            once what stopped it is mended.

            With --check, reads the policy and the inventory it names and prints the night's \
            plan: the hosts, the next window (or the one open now) in the policy's time zone and \
            in local time, each wave's hosts, the gate, the failure budget, the age gate, the \
            packages, the commands around each host, reboots and notify. An invalid policy prints \
            each error as `FILE:LINE:COLUMN: message` on standard error, then the number of \
            errors. Nothing is patched.

            With --status, prints the night its stamp records: the window, the phase, the wave \
            and each host's step (--json: one JSON object, as notify's).
            """
    )

    @Option(name: .long, help: ArgumentHelp("The policy (YAML).", valueName: "file"))
    var policy: String

    @Flag(name: .long, help: "Check the policy and print the night's plan; patch nothing.")
    var check = false

    @Flag(name: .long, help: "Print the night the policy's stamp records; patch nothing.")
    var status = false

    @Flag(name: .long, help: "With --status: one JSON object.")
    var json = false

    @Flag(name: .long, help: "Start a new night in the window open now though this window's night is over (it stopped, or finished).")
    var again = false

    @OptionGroup var state: NightStateOption

    @Option(name: .customLong("ssh-config"), help: ArgumentHelp("The ssh configuration file to use (ssh -F FILE).", valueName: "file"))
    var sshConfig: String?

    @Option(name: .customLong("ssh-option"), help: ArgumentHelp(
        "An option for ssh, passed as -o OPTION (ConnectTimeout=5); repeatable.", valueName: "option"))
    var sshOptions: [String] = []

    @Option(help: ArgumentHelp(
        "The command ssh runs on each host; it must join stdin and stdout to the engine (commonly 'sudo -n installtop bridge').",
        valueName: "command"))
    var remoteCommand: String = SSHCommand.defaultRemoteCommand

    @Option(name: .customLong("checks-dir"), help: ArgumentHelp(
        "The folder of checks each host's engine runs before and after its job (default: the host's /etc/installtop/confirm.d).",
        valueName: "folder"))
    var checksDirectory: String?

    /// The instant the plan or the night is computed for, for tests on a fixed clock.
    @Option(name: .customLong("now"), help: .hidden)
    var now: Int?

    func validate() throws {
        if check && status { throw ValidationError("--check and --status are two different things: give one") }
        if json && !status { throw ValidationError("--json goes with --status") }
        if again && (check || status) { throw ValidationError("--again starts a night: it goes with neither --check nor --status") }
        if remoteCommand.allSatisfy(\.isWhitespace) { throw ValidationError("--remote-command is empty") }
    }

    func run() throws {
        let instant = now ?? Int(time(nil))
        if status {
            let code = PatchNightStatus(stampFile: state.stampFile(policy: policy), json: json, now: instant).run()
            if code != 0 { throw ExitCode(code) }
            return
        }
        let loaded: PatchPolicy
        do {
            loaded = try PolicyLoader.load(contentsOfFile: policy)
        } catch {
            if error.errors.count == 1, let only = error.errors.first, only.isAboutTheWholeFile {
                StandardOutput.stderr.line("installtop: \(only.description)")
            } else {
                StandardOutput.stderr.line("\(error.description)\n\(error.countLine)")
            }
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
        for warning in loaded.warnings { StandardOutput.stderr.line(warning.description) }
        guard !check else {
            for line in PolicyPlanText.lines(of: loaded, now: instant, localTime: { LocalTimeText.string($0, format: "%a %Y-%m-%d %H:%M %Z") }) {
                print(line)
            }
            return
        }
        let night = PatchNight(policy: loaded, policyPath: Self.absolute(policy), stateFolder: state.folder,
                               ssh: PatchSSHSettings(sshConfig: sshConfig, sshOptions: sshOptions, remoteCommand: remoteCommand),
                               checksDirectory: checksDirectory, again: again, now: instant)
        let code = night.run()
        if code != 0 { throw ExitCode(code) }
    }

    /// `path` made absolute against the current folder, so that `night.yaml` and
    /// `./night.yaml` are one policy with one stamp.
    static func absolute(_ path: String) -> String {
        var components: [Substring] = []
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        for component in full.split(separator: "/") {
            switch component {
            case ".": continue
            case "..": _ = components.popLast()
            default: components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}

extension PatchCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] {
        [
            (PatchNight.finished, "the night finished (every wave passed its gate); with --check, the policy is valid and its plan was printed; with --status, the night was printed"),
            (PatchNight.stopped, "the night stopped: a wave's gate failed (a host reverted, none was confirmed, or the gate's command failed), the failure budget was spent, the window closed with hosts left, or a rebooted host did not come back in time"),
            (PatchNight.refused, "invalid usage, or an invalid policy (every error printed as FILE:LINE:COLUMN: message); nothing was patched"),
            (PatchNight.nothingToDo, "nothing was done: no window is open now (the next one is named), this window's night is over already, or (--status) no night of the policy has run here"),
            (PatchNight.stampProblem, "the night's stamp could not be read, written or locked (another installtop patch runs the same policy), or it belongs to another policy; no host was started without it"),
        ]
    }
}
