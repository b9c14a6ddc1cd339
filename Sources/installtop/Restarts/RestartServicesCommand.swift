import ArgumentParser
import Glibc
import InstallEngine
import RestartScan
import TerminalUI

/// `installtop restart-services [UNIT…]`: a restart job for the services the restart scan
/// lists (rule 32), after a confirmation that lists them.
struct RestartServicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restart-services",
        abstract: "Restart the services that still run deleted or replaced code, one update per service.",
        discussion: """
            Without UNITs: every service `installtop restarts` lists, but the SSH server, the display \
            manager, dbus and systemd's own, which are listed and left out unless named. With UNITs: \
            exactly those. Each is `systemctl restart UNIT`; a service an init script started \
            outside systemd is named by its script (/etc/init.d/NAME) and restarted by it \
            (`/etc/init.d/NAME restart`). A restart that exits 0 is then checked to run, for a few \
            seconds: a unit by `systemctl is-active`, an init script's service by its pid file's \
            process (else its `status`); one that does not run fails, saying what showed it, and \
            stays in the restart advice. Processes outside any service are listed, \
            never killed. In the monitor, R asks the same question of the newest scan and queues the \
            same job.
            Exit status: as for run; 1 also when the restarts were not confirmed.
            """
    )

    @Argument(help: "The units to restart (default: the services the scan lists).")
    var units: [String] = []

    @Flag(name: [.short, .long], help: "Restart without asking (off a terminal nothing runs without it).")
    var yes = false

    @Option(help: ArgumentHelp("Read the mapped files' metadata inside this folder (as for `restarts`).", valueName: "dir"))
    var root = "/"

    @Option(help: ArgumentHelp("Read processes from this folder instead of /proc (a recorded sample).", valueName: "dir"))
    var proc = "/proc"

    @OptionGroup var runOptions: RunOptions

    func run() throws {
        let advice = RestartScanner(procRoot: proc, root: root).scan()
        let selection = RestartJobPlan.select(advice, named: units)
        let bare = advice.processes.filter { $0.owner == .bare }
        let sanitizer = TextEnvironment.sanitizer
        var text = ""
        if !selection.leftOut.isEmpty {
            text += "Left out unless named: \(selection.leftOut.map { sanitizer.sanitize($0) }.joined(separator: ", "))\n"
        }
        if !bare.isEmpty {
            text += "In no service (listed, never killed): \(bare.map { "\($0.pid) \(sanitizer.sanitize($0.command))" }.joined(separator: ", "))\n"
        }
        guard !selection.restart.isEmpty else {
            StandardOutput.stdout.write(text + "No service to restart.\n")
            return
        }
        let how = selection.restart.contains(where: RestartJobPlan.isInitScript) ? "systemctl restart, or the init script's restart" : "systemctl restart"
        text += "To restart (\(how)): \(selection.restart.map { sanitizer.sanitize($0) }.joined(separator: ", "))\n"
        StandardOutput.stdout.write(text)
        if !yes {
            guard isatty(STDIN_FILENO) == 1 else {
                StandardOutput.stderr.line("installtop: nothing restarted: off a terminal, --yes confirms")
                throw ExitCode(1)
            }
            StandardOutput.stdout.write("Restart \(selection.restart.count == 1 ? "it" : "them")? [y/N] ")
            guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                StandardOutput.stdout.line("Nothing restarted.")
                throw ExitCode(1)
            }
        }
        throw ExitCode(RunSession(jobs: [RunnableJob(name: RestartJobPlan.jobName, operation: .install, updates: RestartJobPlan.updates(restarting: selection.restart))], options: runOptions).run().rawValue)
    }
}
