import ArgumentParser
import EngineWire
import RestartScan

/// `installtop restarts`: what still runs deleted or replaced code and whether a reboot is
/// needed, now (rule 32, Documentation/RESTARTS.md).
struct RestartsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restarts",
        abstract: "Print the processes that still run deleted or replaced code, and whether a reboot is needed.",
        discussion: """
            Reads only /proc and file metadata: it never runs or reads the code of what it scans. \
            Each process's files are looked up through its own root (/proc/PID/root), so a \
            chroot's or container's files are never taken for this root's. Processes are grouped \
            by systemd service, init script (a pid file under /run names it), session, container \
            or none; processes of other roots are listed apart and left out of the advice; \
            processes it could not read (another user's, when not root) are counted and named, and \
            the answer says it is incomplete: never the all-clear. The text fits the terminal's width.
            Exit status: 0 nothing needs a restart or reboot, 1 something does (even when some \
            processes could not be read), 2 usage errors, 6 nothing it could read does but it \
            could not read some processes (run as root for a complete answer; as root, it says why \
            root could not).
            """
    )

    @Flag(help: "Print one JSON document (restartNeeded, rebootRequired, rebootReasons, services, processes, unreadable, otherRoots, complete, unreadableProcesses, failedRestarts).")
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
            StandardOutput.stdout.write(RestartAdviceText.report(advice, sanitizer: TextEnvironment.sanitizer, width: OutputWidth.current()))
        }
        if advice.needsAction { throw ExitCode(ExitStatus.failed.rawValue) }
        if !advice.isComplete { throw ExitCode(ExitStatus.incomplete.rawValue) }
    }
}
