import Foundation
import InstallDrivers
import InstallEngine

/// One `installtop ansible`: ansible-playbook found and checked, its plugin written out, then
/// the run as one driver session on the usual run (monitor, plain lines or JSON).
struct FleetSession {
    let executable: String?
    let job: FleetJob
    let options: RunOptions

    func run() -> ExitStatus {
        let kind = EngineHost.ansibleKind(executable: executable)
        defer { kind.removeFiles() }
        let playbookName = (job.playbook as NSString).lastPathComponent
        if OutputMode(options: options) == .monitor {
            // `--list-hosts` takes seconds before the monitor opens: say what the wait is for.
            StandardOutput.stderr.line("installtop: checking the playbook \(playbookName)…")
        }
        let driver: any SessionDriver
        do {
            driver = try kind.driver(for: job)
        } catch {
            StandardOutput.stderr.line("installtop: ansible: nothing was run:\n\(error)")
            return .invalidUsage
        }
        return RunSession(jobs: [], sessions: [driver], options: options,
                          startingNote: "starting ansible-playbook \(playbookName)…").run()
    }
}
