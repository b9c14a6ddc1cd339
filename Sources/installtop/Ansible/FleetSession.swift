#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallDrivers
import InstallEngine
import TextBasics

/// One `installtop ansible`: ansible-playbook found and checked, its plugin written out, then
/// the run as one driver session on the usual run (monitor, plain lines or JSON). With the
/// monitor the check runs inside the session (`CheckedPlaybookDriver`), so the monitor opens
/// at once.
struct FleetSession {
    let executable: String?
    let job: FleetJob
    let options: RunOptions

    func run() -> ExitStatus {
        let kind = AnsibleKindRegistration.jobKind(executable: executable)
        defer { kind.removeFiles() }
        let playbookName = PathText.lastComponent(of: job.playbook)
        if OutputMode(options: options) == .monitor {
            // `--list-hosts` takes seconds: the monitor opens at once and says what the wait is
            // for; a refused playbook shows as the session's failed job, and exits 2 after.
            let checked = CheckedPlaybookDriver(kind: kind, job: job)
            let status = RunSession(jobs: [], sessions: [checked], options: options,
                                    startingNote: "checking the playbook \(playbookName), then starting ansible-playbook…").run()
            guard let refusal = checked.refusal else { return status }
            StandardOutput.stderr.line("installtop: ansible: nothing was run:\n\(refusal)")
            return .invalidUsage
        }
        let driver: any SessionDriver
        do {
            driver = try kind.driver(for: job)
        } catch {
            StandardOutput.stderr.line("installtop: ansible: nothing was run:\n\(error)")
            return .invalidUsage
        }
        let status = RunSession(jobs: [], sessions: [driver], options: options,
                                startingNote: "starting ansible-playbook \(playbookName)…").run()
        if isCheckRun && OutputMode(options: options) != .json {
            // Below the summary, whose "changed" counts would otherwise read as done.
            StandardOutput.stdout.line("This was a check run (--check): Ansible changed nothing; \"would change\" marks what a run would change.")
        }
        return status
    }

    /// ansible-playbook was asked for a dry run: `--check`, or `-C` alone or among other
    /// flags that take no value (`-vC`).
    var isCheckRun: Bool {
        job.arguments.contains { argument in
            argument == "--check" || (argument.hasPrefix("-") && !argument.hasPrefix("--") && argument.count > 1
                && argument.dropFirst().allSatisfy { "vCDbkK".contains($0) } && argument.contains("C"))
        }
    }
}
