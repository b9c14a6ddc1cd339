import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallEngine
import TextBasics

/// `installtop drive -- PROGRAM [ARGS…]`: any program that speaks the driver protocol, its
/// declared jobs and updates on the usual run (Documentation/MANIFESTS-AND-DRIVERS.md "Drivers from manifests").
struct DriveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drive",
        abstract: "Run a program that speaks installtop's driver protocol: its jobs are the ones it declares.",
        discussion: """
            The program writes JSON Lines on fd 3 (its plan, then each update's start, progress \
            and result) and reads stop requests on fd 4: Documentation/DRIVER-PROTOCOL.md, with \
            an example in Examples/driver/. Abort (a) asks it to stop at its next safe point; a \
            second abort interrupts it, then kills what is left of it. A program that cannot \
            start, or ends before declaring any job, leaves a failed job named `driver` with its \
            exit status and last output lines. Exit status: 0 all succeeded, 1 some update \
            failed, 2 invalid usage, 3 aborted, 4 all succeeded and a reboot is required.
            """
    )

    @OptionGroup var options: RunOptions

    @Argument(parsing: .postTerminator, help: "The program and its arguments, after --.")
    var command: [String] = []

    func validate() throws {
        guard let program = command.first, !program.isEmpty else {
            throw ValidationError("name the program to run after --: installtop drive -- PROGRAM [ARGS…]")
        }
    }

    func run() throws {
        let job = DriverJob(command: command, workingDirectory: FileManager.default.currentDirectoryPath)
        let driver = DriverJobKind().driver(for: job)
        let program = PathText.lastComponent(of: command[0])
        let status = RunSession(jobs: [], sessions: [driver], options: options, startingNote: "starting \(program)…").run()
        throw ExitCode(status.rawValue)
    }
}
