import EngineDaemon
import InstallEngine
import PatchPolicy

/// Runs a policy's `notify:` command with the night's summary (`NightSummary`) as JSON on its
/// stdin: before the night starts, after each wave, on a stop and at the end. A command that
/// fails is said on stderr and never stops the night.
struct PatchNotifier: Sendable {
    let command: UpdateCommand?
    let policyPath: String
    let window: WindowOccurrence

    /// Tells `notice` (`nil`: the night is starting) with `machine` as it is then.
    func tell(_ notice: NightNotice?, machine: NightMachine) async {
        guard let command else { return }
        let stamp = NightStamp(policy: policyPath, window: window, machine: machine)
        let summary: NightSummary
        switch notice {
        case nil: summary = NightSummary(stamp: stamp, event: "starting")
        case .wavePassed(let wave)?: summary = NightSummary(stamp: stamp, event: "wave-passed", wave: wave)
        case .stopped?: summary = NightSummary(stamp: stamp, event: "stopped")
        case .finished?: summary = NightSummary(stamp: stamp, event: "finished")
        }
        let folder = Self.folder(of: policyPath)
        let environment = ["INSTALLTOP_POLICY": policyPath, "INSTALLTOP_EVENT": summary.event ?? ""]
        let input = Array((summary.json() + "\n").utf8)
        let result = await withCheckedContinuation { continuation in
            EngineThread.detach(named: "installtop-notify") {
                continuation.resume(returning: AdminCommand(command: command, folder: folder).run(environment: environment, input: input))
            }
        }
        if result.status != 0 {
            StandardOutput.stderr.line("installtop: notify (\(summary.event ?? "")): its command \(result.failure); the night goes on")
        }
    }

    /// The policy's folder: where its commands run.
    static func folder(of policy: String) -> String {
        guard let slash = policy.lastIndex(of: "/") else { return "." }
        let parent = String(policy[..<slash])
        return parent.isEmpty ? "/" : parent
    }
}
