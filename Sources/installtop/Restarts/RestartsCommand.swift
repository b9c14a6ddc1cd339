import ArgumentParser
import EngineWire
import RestartScan

/// `installtop restarts`: what still runs deleted or replaced code and whether a reboot is
/// needed, now (rule 32, PRODUCT.md "After the install").
struct RestartsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restarts",
        abstract: "Print the processes that still run deleted or replaced code, and whether a reboot is needed.",
        discussion: """
            Reads only /proc and file metadata: it never runs or reads the code of what it scans. \
            Processes are grouped by systemd service, session, container or none; processes it \
            could not read (another user's, when not root) are named.
            Exit status: 0 nothing needs a restart or reboot, 1 something does, 2 usage errors.
            """
    )

    @Flag(help: "Print one JSON document (restartNeeded, rebootRequired, rebootReasons, services, processes, unreadable).")
    var json = false

    @Option(help: ArgumentHelp("Read boot/, lib/modules/, run/reboot-required and the mapped files' metadata inside this folder (an image's root).", valueName: "dir"))
    var root = "/"

    @Option(help: ArgumentHelp("Read processes from this folder instead of /proc (a recorded sample).", valueName: "dir"))
    var proc = "/proc"

    func run() throws {
        let advice = RestartScanner(procRoot: proc, root: root).scan()
        if json {
            StandardOutput.stdout.line(RestartAdviceCoding.encode(advice))
        } else {
            StandardOutput.stdout.write(RestartAdviceText.report(advice, sanitizer: TextEnvironment.sanitizer))
        }
        if advice.needsAction { throw ExitCode(1) }
    }
}
