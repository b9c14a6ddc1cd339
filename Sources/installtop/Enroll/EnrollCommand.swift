import ArgumentParser
import EngineDaemon
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import TerminalUI

/// `installtop enroll`: puts installtop on each host over the operator's ssh, ready for the board.
struct EnrollCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enroll",
        abstract: "Put installtop on each host over ssh: the package, the engine's unit enabled and started, the hooks, each verified.",
        discussion: """
            Each selected host is reached with the operator's ssh as `attach --hosts` reaches it \
            (BatchMode=yes: nothing prompts), at most --parallel hosts at once. On each, as root (or \
            through `sudo -n` with --sudo): the package (--package, else this version's \
            installtop_VERSION_ARCH.deb in .build/deb, as Scripts/build-deb leaves it) is copied \
            through ssh and installed with `apt-get install -y ./FILE.deb`, so its dependencies \
            resolve, then dpkg's state and `installtop --version` must be this version's; the unit \
            \(SystemdUnit.name) is enabled and started (`systemctl enable --now`), or restarted when its \
            engine runs the installtop the package replaced and has no job to finish, and the engine \
            must answer on \(SystemdUnit.socketPath); `installtop hooks install` writes the hooks and `hooks \
            status` must find them; last the board's own link (ssh and --remote-command) must reach \
            the engine. A step the host has already is said `already` and changes nothing, so running \
            it again is safe. On a terminal each host has a bar of its steps and what runs now, redrawn \
            in place; otherwise each step is a line `HOST: STEP: …` as it goes. A step that fails names \
            the host, the step, the host's own words and the fix, and that host's later steps are not \
            tried while the other hosts go on. A summary line per host ends it. For hosts without \
            systemd (chroots, containers) and tests, --engine-command replaces the unit and \
            --apt-config moves everything into the root it names.
            """
    )

    @OptionGroup var hosts: HostsOptions
    @OptionGroup var setup: HostSetupOptions

    @Option(help: ArgumentHelp(
        "The installtop package to install (default: this version's in .build/deb of the working directory or beside this binary's build folder, or apt's archive cache).",
        valueName: "file.deb"))
    var package: String?

    @Option(help: ArgumentHelp("How many hosts are enrolled at once (1 to 16: each waits on the process's pool for blocking work).", valueName: "N"))
    var parallel = 2

    @Option(help: ArgumentHelp(
        "A shell command run on each host instead of `systemctl enable --now \(SystemdUnit.name)` when no engine answers there (hosts without systemd, tests); it must start `installtop serve` in the background, its output away from the terminal.",
        valueName: "command"))
    var engineCommand: String?

    func validate() throws {
        guard hosts.isRemote else { throw ValidationError("give the hosts to enroll: --host NAME or --hosts INVENTORY") }
        guard parallel >= 1 else { throw ValidationError("--parallel must be at least 1") }
        // Each host's enrollment holds a thread of the blocking pool while it waits for ssh:
        // a wider --parallel would run no more at once than the pool has threads.
        guard parallel <= BlockingPool.shared.limit else {
            throw ValidationError("--parallel is at most \(BlockingPool.shared.limit): that many hosts are enrolled at once; got \(parallel)")
        }
        if let engineCommand, engineCommand.allSatisfy(\.isWhitespace) { throw ValidationError("--engine-command is empty") }
    }

    func run() throws {
        let commands = try hosts.sshCommands()
        let package = try EnrollPackage.locate(given: self.package)
        let (setup, engineCommand) = (self.setup, self.engineCommand)
        let sanitizer = TextEnvironment.sanitizer
        StandardOutput.stdout.line("enrolling \(commands.count) host\(commands.count == 1 ? "" : "s") with \(package.path), \(parallel) at a time")
        let names = commands.map { sanitizer.sanitize($0.host) }
        let bars = Self.showsBars(hosts: commands.count)
            ? EnrollBars(EnrollProgress(hosts: names, parallel: parallel, unicode: TextEnvironment.isUTF8())) : nil
        let outcomes = BoundedWorkers.map(Array(commands.enumerated()), width: parallel) { index, command in
            let name = names[index]
            let outcome = HostEnrollment(command: command, options: setup, package: package, engineCommand: engineCommand).run { step, state, text in
                let words = sanitizer.sanitize(text)
                if let bars {
                    bars.draw { $0.report(index, step: step, state: state, text: words) }
                } else {
                    let said = state == .begin ? "" : "\(state.rawValue): "
                    StandardOutput.stdout.line("\(name): \(step.rawValue): \(said)\(words)")
                }
            }
            if let bars {
                bars.draw { $0.end(index, outcome) }
            } else if let lines = Self.failureLines(name, outcome, sanitizer: sanitizer) {
                StandardOutput.stdout.write(lines)
            }
            return outcome
        }
        // Below the bars, once they are still: why each failed host failed, whole.
        if bars != nil {
            for (name, outcome) in zip(names, outcomes) {
                if let lines = Self.failureLines(name, outcome, sanitizer: sanitizer) { StandardOutput.stdout.write(lines) }
            }
        }
        StandardOutput.stdout.write(Self.summary(zip(commands.map(\.host), outcomes).map { ($0, $1) }, sanitizer: sanitizer))
        if !outcomes.allSatisfy(\.succeeded) { throw ExitCode(ExitStatus.failed.rawValue) }
    }

    /// Bars on a terminal tall enough for a line per host (the block is redrawn from its first
    /// line, which must still be on screen); a line per step otherwise.
    private static func showsBars(hosts: Int) -> Bool {
        guard isatty(STDOUT_FILENO) == 1, ProcessInfo.processInfo.environment["TERM"].map({ $0 != "dumb" }) ?? false else { return false }
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0 else { return false }
        return hosts + 2 <= Int(size.ws_row)
    }

    /// How a host failed, with its own words and the fix; `nil` for an enrolled host.
    static func failureLines(_ name: String, _ outcome: EnrollOutcome, sanitizer: TextSanitizer) -> String? {
        var lines: [String] = []
        switch outcome {
        case .enrolled: return nil
        case .unreachable(let reason):
            lines.append("\(name): unreachable: \(sanitizer.sanitize(reason))")
        case .failed(let step, let text, let words, let fix):
            lines.append("\(name): \(step): failed: \(sanitizer.sanitize(text))")
            lines += words.map { "\(name):     \(sanitizer.sanitize($0))" }
            lines.append("\(name):     fix: \(sanitizer.sanitize(fix))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A line per host (`h1: enrolled (package, engine, hooks)`, `h2: already enrolled`,
    /// `h3: failed at package: …`, `h4: unreachable: …`), then the counts.
    static func summary(_ outcomes: [(host: String, outcome: EnrollOutcome)], sanitizer: TextSanitizer) -> String {
        var lines = ["summary:"]
        var counts = (enrolled: 0, already: 0, failed: 0, unreachable: 0)
        for (host, outcome) in outcomes {
            let name = sanitizer.sanitize(host)
            switch outcome {
            case .enrolled(let changed) where changed.isEmpty:
                counts.already += 1
                lines.append("\(name): already enrolled")
            case .enrolled(let changed):
                counts.enrolled += 1
                lines.append("\(name): enrolled (\(changed.map(\.rawValue).joined(separator: ", ")))")
            case .failed(let step, let text, _, _):
                counts.failed += 1
                lines.append("\(name): failed at \(step): \(sanitizer.sanitize(text))")
            case .unreachable(let reason):
                counts.unreachable += 1
                lines.append("\(name): unreachable: \(sanitizer.sanitize(reason))")
            }
        }
        lines.append("\(outcomes.count) host\(outcomes.count == 1 ? "" : "s"): \(counts.enrolled) enrolled, \(counts.already) already, "
            + "\(counts.failed) failed, \(counts.unreachable) unreachable")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension EnrollCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] {
        [
            (ExitStatus.succeeded.rawValue, "every host is enrolled (or was already), each step verified"),
            (ExitStatus.failed.rawValue, "some host failed a step (named with the host's words and the fix) or was unreachable; the others were enrolled"),
            (ExitStatus.invalidUsage.rawValue, "invalid usage: no host, an inventory that cannot be read, no package found (build it with Scripts/build-deb or give --package), a package of another version"),
        ]
    }
}
