import Foundation
import InstallEngine
import Synchronization

/// One apt-get transaction as it runs: its process, the pure `APTRunState` its lines go
/// through, and what happens after it ends (dpkg's final state, the repair after a forced stop).
final class APTRunningDriver: RunningDriver, UpdateReporter {
    private struct State {
        var run: APTRunState
        var process: ProcessRunningUpdate?
        /// What a forced stop killed, and which update it cut.
        var killed: [ProcessTree.Member]?
        var cut: [Int] = []
    }

    private let plan: APTPlan
    private let aptGet: String
    private let reporter: any DriverReporter
    private let state: Mutex<State>
    private let slot = OutcomeSlot()
    /// Reports leave in the order they were made: the poller's thread and a stop request may
    /// both produce some.
    private let reportLock = Mutex(())

    private init(plan: APTPlan, aptGet: String, reporter: any DriverReporter) {
        self.plan = plan
        self.aptGet = aptGet
        self.reporter = reporter
        let before = Self.rebootList(at: plan.environment.rebootPackagesPath)
        state = Mutex(State(run: APTRunState(plan: plan, rebootListBefore: before)))
    }

    static func start(plan: APTPlan, aptGet: String, jobName: String, backend: ProcessBackend,
                      reporter: any DriverReporter) -> APTRunningDriver {
        let driver = APTRunningDriver(plan: plan, aptGet: aptGet, reporter: reporter)
        let commandLine = APTCommandLine(request: plan.job.request, aptGet: aptGet)
        let carrier = Update(id: "apt-get", title: plan.job.request.summary, environment: plan.environment.commandEnvironment)
        let request = UpdateRunRequest(update: carrier, operation: plan.job.request.operation,
                                       command: .argv(plan.environment.command(commandLine.transaction)), jobName: jobName, channelFormat: .raw)
        let process = backend.startProcess(request, reporter: driver)
        driver.state.withLock { $0.process = process }
        Task.detached { await driver.finish(after: process) }
        return driver
    }

    // MARK: - RunningDriver

    func stopAtSafePoint() {
        deliver {
            let (reports, process) = state.withLock { state in (state.run.requestStop(), state.process) }
            // SIGINT to apt-get alone: it finishes the package it is on and starts no other
            // (PACKAGES.md); SIGTERM would leave dpkg's database interrupted.
            process?.interrupt()
            return reports
        }
    }

    func kill() {
        state.withLock { state in
            guard state.killed == nil, let process = state.process else { return }
            state.cut = state.run.inFlight
            state.killed = process.killTree()
        }
    }

    var outcome: UpdateRunOutcome {
        get async { await slot.outcome }
    }

    // MARK: - UpdateReporter (apt-get's lines, on the poller's thread)

    func report(_ report: UpdateReport) {
        deliver {
            state.withLock { state -> [DriverReport] in
                switch report {
                case .channelLine(let line):
                    return state.run.statusLine(line) { Self.rebootList(at: plan.environment.rebootPackagesPath) }
                case .output(let stream, let line):
                    return state.run.outputLine(line, on: stream)
                default:
                    return []
                }
            }
        }
    }

    // MARK: - The end

    /// Waits for apt-get, repairs after a forced stop, checks dpkg's final state, then settles.
    private func finish(after process: ProcessRunningUpdate) async {
        let outcome = await process.outcome
        let (killed, cut) = state.withLock { ($0.killed, $0.cut) }
        // dpkg's commands block; they run off the concurrency pool.
        await Self.onThread { [self] in
            if let killed { repair(cut: cut, killed: killed) }
            let finalStates = APTPackageState.query(administrativeDirectory: plan.environment.administrativeDirectory)
            deliver { state.withLock { $0.run.aptEnded(outcome, plan: plan, finalStates: finalStates) } }
        }
        slot.settle(outcome)
    }

    /// After a forced stop (rule 25), as visible steps of the cut package: `dpkg --configure -a`
    /// in the same root; when `dpkg --audit` still lists problems (a package cut in its
    /// preinst is left half-installed, which only apt repairs), `apt-get --reinstall install`
    /// of the packages left half-installed. The cut
    /// package is aborted with the state it was left in and what the audit says.
    private func repair(cut: [Int], killed: [ProcessTree.Member]) {
        let names = killed.map { "\($0.name) (\($0.pid))" }.joined(separator: ", ")
        let target = cut.first
        func say(_ report: UpdateReport) {
            guard let target else { return }
            deliver { [.update(index: target, report)] }
        }
        let environment = plan.environment
        func step(_ arguments: [String], shownAs name: String) -> Int32 {
            say(.message("repairing: \(name)"))
            say(.output(.stdout, "installtop: \(name)"))
            let result = SystemCommand.run(arguments, environment: environment.commandEnvironment)
            // apt-get runs dpkg on a pty, whose lines end in "\r\n": one Character in Swift,
            // which a split on "\n" alone never matches. Lines end as the engine's do (a bare
            // "\r" stays inside its line).
            let lines = (result.stdout + result.stderr).split { $0 == "\n" || $0 == "\r\n" }
            for line in lines { say(.output(.stdout, String(line))) }
            return result.status
        }
        func audit() -> String {
            let result = SystemCommand.run(environment.dpkgCommand(["--audit"]), environment: environment.commandEnvironment)
            return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        say(.output(.stdout, "installtop: killed \(names.isEmpty ? "apt-get" : "apt-get, " + names)"))
        let configure = step(environment.dpkgCommand(["--configure", "-a"]), shownAs: "dpkg --configure -a")
        var steps = ["dpkg --configure -a " + (configure == 0 ? "ran" : "exited with status \(configure)")]
        var auditText = audit()
        let broken = APTPackageState.query(administrativeDirectory: environment.administrativeDirectory)
            .filter { $0.value.needsReinstall }.keys.sorted()
        if !auditText.isEmpty, !broken.isEmpty {
            let name = "apt-get --reinstall install " + broken.joined(separator: " ")
            let fix = step(environment.command(APTCommandLine.repair(aptGet: aptGet, packages: broken)), shownAs: name)
            steps.append(name + (fix == 0 ? " ran" : " exited with status \(fix)"))
            auditText = audit()
        }
        for line in auditText.split(separator: "\n") { say(.output(.stdout, "dpkg --audit: " + line)) }
        let states = APTPackageState.query(administrativeDirectory: environment.administrativeDirectory)
        let auditWord = auditText.isEmpty ? "dpkg --audit is clean" : "dpkg --audit reports: \(auditText.split(separator: "\n").first ?? "")"
        deliver {
            cut.map { index in
                let package = plan.changes[index].package
                let left = (states[package] ?? .notInstalled).description
                return .updateFinished(index: index, DriverVerdict(
                    resultCode: .aborted, reason: "cut by a forced abort; \(steps.joined(separator: ", then ")); left \(left); \(auditWord)"))
            }
        }
        state.withLock { state in
            for index in cut { _ = state.run.markFinished(index) }
        }
    }

    // MARK: - Helpers

    /// Makes reports and hands them on, one batch at a time in the order they were made.
    private func deliver(_ make: () -> [DriverReport]) {
        reportLock.withLock { _ in
            for report in make() { reporter.report(report) }
        }
    }

    /// The package names in Debian's `reboot-required.pkgs` list; empty when there is none.
    static func rebootList(at path: String) -> Set<String> {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
    }

    private static func onThread(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                body()
                continuation.resume()
            }
        }
    }
}
