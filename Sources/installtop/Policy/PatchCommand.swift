import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import PatchPolicy
import TextBasics

/// `installtop patch --policy FILE --check`: checks a patch-night policy (Documentation/POLICY.md)
/// and prints the night it plans. Running the night itself is not in this version: without
/// `--check` the command refuses, as a usage error, rather than pretend.
struct PatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "patch",
        abstract: "Check a patch-night policy and print the night it plans.",
        discussion: """
            With --check, reads the policy and the inventory it names and prints the night's \
            plan: the hosts, the next window (or the one open now) in the policy's time zone and \
            in local time, each wave's hosts, the gate, the failure budget, the age gate, the \
            packages, the commands around each host, reboots and notify. An invalid policy prints \
            each error as `FILE:LINE:COLUMN: message` on standard error, then the number of \
            errors. Nothing is patched.
            """
    )

    @Option(name: .long, help: ArgumentHelp("The policy (YAML).", valueName: "file"))
    var policy: String

    @Flag(name: .long, help: "Check the policy and print the night's plan; patch nothing.")
    var check = false

    /// The instant the plan is computed for, for tests on a fixed clock.
    @Option(name: .customLong("now"), help: .hidden)
    var now: Int?

    func validate() throws {
        guard check else {
            throw ValidationError("running a patch night is not in this version of installtop; `--check` checks the policy and prints the night it plans")
        }
    }

    func run() throws {
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
        let instant = now ?? Int(time(nil))
        for line in PolicyPlanText.lines(of: loaded, now: instant, localTime: { LocalTimeText.string($0, format: "%a %Y-%m-%d %H:%M %Z") }) {
            print(line)
        }
    }
}

extension PatchCommand: DocumentedExitStatuses {
    static var exitStatuses: [(status: Int32, meaning: String)] {
        [
            (ExitStatus.succeeded.rawValue, "the policy is valid; the night's plan was printed"),
            (ExitStatus.invalidUsage.rawValue, "invalid usage (also: no --check), or an invalid policy (every error printed as FILE:LINE:COLUMN: message)"),
        ]
    }
}
