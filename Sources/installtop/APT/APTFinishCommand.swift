import ArgumentParser
import InstallDrivers

/// `installtop apt finish [--apt-config FILE] [--chroot DIR]`: finishes what dpkg was left
/// half-way in the root with the forced stop's repair (`APTInterruptedDpkg.finish`), each step's
/// lines on stdout. The one update of the job `installtop apt repair RUN` runs first when dpkg
/// was left half-way, so that it shows in the monitor and the history like any job; not meant
/// to be run by hand.
struct APTFinishCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "finish",
        abstract: "Finish what dpkg was left half-way (run by installtop apt repair).",
        shouldDisplay: false
    )

    @Option(help: ArgumentHelp("The apt configuration of the root (APT_CONFIG).", valueName: "file"))
    var aptConfig: String?

    @Option(help: ArgumentHelp("The folder apt runs in through chroot.", valueName: "dir"))
    var chroot: String?

    /// Exit status 0 when dpkg is consistent afterwards (also when nothing was half-way), 5
    /// when it is not (the last line names the command that repairs it), 2 when the root cannot
    /// be resolved.
    func run() throws {
        let environment: APTEnvironment
        do {
            environment = try APTEnvironment.resolve(aptConfig: aptConfig, chroot: chroot)
        } catch {
            StandardOutput.stderr.line("installtop: apt finish: \(error.message)")
            throw ExitCode(ExitStatus.invalidUsage.rawValue)
        }
        let (repaired, _) = APTInterruptedDpkg.finish(in: environment) { StandardOutput.stdout.line($0) }
        if !repaired { throw ExitCode(ExitStatus.leftBroken.rawValue) }
    }
}
