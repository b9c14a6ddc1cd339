/// Runs a patch night: a thin loop around `NightMachine`, which keeps every rule. It performs
/// the machine's actions in order (a stamp before each step it records), runs each host's step
/// and each gate as a task of its own through `runner`, feeds what they report back to the
/// machine, and tells the machine when `windowEnd` returns. Says one line per step with `say`:
/// `web1: patching (wave 1)`, `web1: confirmed`, `wave 1 gate passed`, `night stopped: …`.
public struct NightLoop: Sendable {
    public let runner: any NightHostRunner
    /// Writes the machine as the night's stamp (`NightAction.writeStamp`). When it throws,
    /// nothing more is started: the loop waits for the steps under way and rethrows.
    public let writeStamp: @Sendable (NightMachine) throws -> Void
    /// Runs the policy's `notify:` with the notice and the machine as it is then; awaited
    /// before the next action, and never a reason to stop the night.
    public let notify: @Sendable (NightNotice, NightMachine) async -> Void
    /// Writes one line of the night's progress.
    public let say: @Sendable (String) -> Void

    public init(runner: any NightHostRunner, writeStamp: @escaping @Sendable (NightMachine) throws -> Void,
                notify: @escaping @Sendable (NightNotice, NightMachine) async -> Void, say: @escaping @Sendable (String) -> Void) {
        self.runner = runner
        self.writeStamp = writeStamp
        self.notify = notify
        self.say = say
    }

    /// What a step under way reported.
    private enum Report: Sendable {
        case hostEnded(String, HostReport)
        case gateEvaluated(wave: Int, passed: Bool, reason: String)
        case windowClosed
    }

    /// Runs `machine` to its end (`phase.isOver`): from `begin()`, or from `resume()` for a
    /// machine read from a stamp. `windowEnd` returns when the window closes (a timer, or a test's
    /// manual clock); it must also return when its task is cancelled, which the loop does once
    /// the night is over. Returns the machine as it ended.
    /// - Throws: what `writeStamp` threw, once the steps under way have ended.
    public func run(_ machine: NightMachine, resuming: Bool,
                    windowEnd: @escaping @Sendable () async -> Void) async throws -> NightMachine {
        var machine = machine
        var actions = resuming ? machine.resume() : machine.begin()
        let runner = runner
        return try await withThrowingTaskGroup(of: Report.self) { group in
            group.addTask {
                await windowEnd()
                return .windowClosed
            }
            var underWay = 0
            var windowClosed = false
            while true {
                while !actions.isEmpty {
                    switch actions.removeFirst() {
                    case .writeStamp:
                        try writeStamp(machine)
                    case .startHost(let host, let wave):
                        say("\(host): patching (wave \(wave + 1))")
                        underWay += 1
                        group.addTask { .hostEnded(host, await runner.patchReporting(host: host, wave: wave)) }
                    case .recoverHost(let host, let wave):
                        say("\(host): was running when the night was interrupted; asking its engine how it ended")
                        underWay += 1
                        group.addTask { .hostEnded(host, HostReport(outcome: await runner.recover(host: host, wave: wave))) }
                    case .evaluateGate(let wave, let confirmed):
                        underWay += 1
                        group.addTask {
                            let verdict = await runner.evaluateGate(wave: wave, confirmed: confirmed)
                            return .gateEvaluated(wave: wave, passed: verdict.passed, reason: verdict.reason)
                        }
                    case .notify(let notice):
                        switch notice {
                        case .stopped(let reason): say("night stopped: \(reason.sentence)")
                        case .finished: say("night finished: every wave passed its gate")
                        case .wavePassed: break
                        }
                        await notify(notice, machine)
                    }
                }
                if machine.phase.isOver && underWay == 0 { break }
                guard let report = try await group.next() else { break }
                switch report {
                case .hostEnded(let host, let report):
                    underWay -= 1
                    say("\(host): " + Self.words(report.outcome))
                    actions = machine.hostEnded(host, outcome: report.outcome, reboot: report.reboot)
                case .gateEvaluated(let wave, let passed, let reason):
                    underWay -= 1
                    say("wave \(wave + 1) gate " + (passed ? "passed" : "failed: \(reason)"))
                    actions = machine.gateEvaluated(wave: wave, passed: passed, reason: reason)
                case .windowClosed:
                    guard !windowClosed else { continue }
                    windowClosed = true
                    if !machine.phase.isOver { say("the window closed: no new host starts; the running ones finish") }
                    actions = machine.windowClosed()
                }
            }
            group.cancelAll()
            return machine
        }
    }

    /// `confirmed`, `failed: why`, `reverted: why`, `unreachable: why` (also for a host not back
    /// from its reboot).
    static func words(_ outcome: HostOutcome) -> String {
        switch outcome {
        case .confirmed: "confirmed"
        case .failed(let reason): "failed: \(reason)"
        case .reverted(let reason): "reverted: \(reason)"
        case .unreachable(let reason), .notBack(let reason): "unreachable: \(reason)"
        }
    }
}
