#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
import RestartScan
import TextBasics

/// apt-get's side of a running apt job, on `LineDriverRunner`: its Status-Fd and output lines
/// through the pure `APTRunState`, the gate's stop and SIGINT to apt-get alone for a safe stop,
/// and what happens after it ends (the repair after a forced stop, what a graceful one left to
/// dpkg, dpkg's final state).
struct APTTranslator: LineTranslator {
    let plan: APTPlan
    let aptGet: String
    /// The transaction apt runs in when its hook may still be waiting (versions being kept for
    /// undo): apt ignores SIGINT while its hooks run, so a stop goes through it as well.
    var transaction: APTHookTransaction?
    /// The safe point between dpkg's archives of a transaction started without `transaction`;
    /// removed when apt has ended.
    var gate: DpkgArchiveGate?
    /// The transaction's mark (`INSTALLTOP_APT_RUN`'s text) when started here; a `transaction`'s
    /// own otherwise. What is left of the transaction after an end installtop did not cause
    /// is found by it (`APTTransactionRemains`).
    var marker: String?

    /// The least time between two hand-overs of apt's lines to the job: apt and dpkg write a
    /// package's lines in a dozen small writes, each a wake-up of the poller, and handing each
    /// on woke the job's delivery thread as often (most of installtop's CPU during a
    /// transaction). It paces the reading too (`ChildSinks.afterReadsInterval`): 25 ms, less
    /// than the monitor's frame interval (33 ms), took installtop's share of a 200-package
    /// install from 2.1–3.5 % of apt's and dpkg's CPU (10 ms) to 1.5–1.7 %. The reports of a
    /// stop request queued behind held lines wait at most as long; a flood is not held back.
    static var handOnInterval: Duration { .milliseconds(25) }

    /// The state apt's lines start from: `rebootListBefore` is the reboot list before apt
    /// started, read now when not known.
    func initialState(rebootListBefore: Set<String>? = nil) -> APTRunState {
        APTRunState(plan: plan, rebootListBefore: rebootListBefore ?? Self.rebootList(at: plan.environment.rebootPackagesPath))
    }

    // MARK: - LineTranslator

    /// A Status-Fd line the tracker could not read is counted on the job.
    func translate(_ lines: ArraySlice<ToolLine>, in run: inout APTRunState, into reports: inout [DriverReport]) {
        // Read once for all the lines taken together: they were all printed before it is read,
        // so it says the same to each, and a `stat` per finished package was a tenth of the
        // cost of a flood of Status-Fd lines.
        var rebootList: Set<String>?
        let readRebootList = { [plan] in
            if let rebootList { return rebootList }
            let read = Self.rebootList(at: plan.environment.rebootPackagesPath)
            rebootList = read
            return read
        }
        for line in lines {
            if let stream = line.stream {
                run.outputLine(line.text, on: stream, into: &reports)
                continue
            }
            let ignoredBefore = run.tracker.ignoredLines
            run.statusLine(line.text, rebootList: readRebootList, into: &reports)
            reports += repeatElement(.ignoredLine, count: run.tracker.ignoredLines - ignoredBefore)
        }
    }

    func stopRequested(in run: inout APTRunState) -> [DriverReport] {
        run.requestStop()
    }

    /// The gate's stop, then SIGINT to apt-get alone: dpkg opens no further archive where what
    /// it unpacked can be configured, apt starts no other dpkg run than its configuration of
    /// them (Documentation/PACKAGE-FACTS.md); SIGTERM would leave dpkg's database interrupted.
    func askToStop(_ process: ChildProcess) {
        guard let transaction else {
            gate?.requestStop()
            return process.interrupt()
        }
        // SIGINT to the same process, and the hook's answer `stop` if it has not been given.
        transaction.stop()
    }

    /// Repairs after a forced stop (or runs the triggers a graceful one left pending), reads
    /// dpkg's final state, then settles every package from it. An end by a signal installtop
    /// did not send (`APTUnexpectedEnd`) is a forced stop too (rule 25a): what is left of the
    /// transaction is killed first, and the job hears that it was stopped by force.
    func finish(after outcome: UpdateRunOutcome, killed: [ProcessTree.Member]?, runner: LineDriverRunner<APTTranslator>) {
        gate?.remove()
        var killed = killed
        var unexpected: APTUnexpectedEnd?
        if killed == nil, let end = runner.deliver({ run in
            ([], APTUnexpectedEnd(outcome: outcome, dpkgDeath: run.dpkgDeath, stopSent: run.stopRequested))
        }) {
            (killed, unexpected) = stopTheRest(after: end, runner: runner)
        }
        // What the kill cut is known only now that everything apt said before it died has been
        // read: under load its Status-Fd lines may still have been in the pipe at the kill. The
        // package it was on, or, when apt was past every package (in trigger processing), the
        // last one it finished, whose success is still held back: the repair is shown on it.
        // (The poller took every line before the outcome settled; `deliver` takes any left.)
        // The cut packages get their verdicts at the end, from dpkg's state after the repair.
        let (cut, cutAfter) = runner.deliver { run -> ([DriverReport], ([Int], (index: Int, verdict: DriverVerdict)?)) in
            guard killed != nil else { return ([], ([], nil)) }
            let cut = run.inFlight
            for index in cut { _ = run.markFinished(index) }
            return ([], (cut, cut.isEmpty ? run.takeHeld() : nil))
        }
        var forcedStop: APTForcedStop?
        if let killed {
            forcedStop = repair(cut: cut, after: cutAfter, killed: killed, unexpected: unexpected, runner: runner)
            if let unexpected, let forcedStop {
                // The job's last word says what ended the transaction before what the repair made of it.
                runner.deliver { run in run.repairSaid(unexpected.sentence + "; " + forcedStop.repair.verdict) }
            }
        } else if runner.deliver({ run in ([], run.stopRequested) }) {
            var aptEnd: String?
            if case .signaled(SIGINT) = outcome {
                aptEnd = Self.endedOnTheStop
                runner.deliver { run in run.repairSaid(Self.endedOnTheStop) }
                letTheRestEnd(runner: runner)
            }
            finishAfterGracefulStop(last: runner.deliver { run in ([], run.takeHeld()) }, aptEnd: aptEnd, runner: runner)
        } else if case .exited(let status) = outcome, status != 0,
                  let unfinished = APTRepair(environment: plan.environment, aptGet: aptGet, say: { _ in }).leftUnfinished() {
            // apt failed on its own (rule 25a): nothing is retried, the job's last word says how
            // to finish once the cause is fixed.
            runner.deliver { run in run.repairSaid(unfinished) }
        }
        let finalStates = APTPackageState.query(administrativeDirectory: plan.environment.administrativeDirectory)
        let rebootList = Self.rebootList(at: plan.environment.rebootPackagesPath)
        runner.deliver { $0.aptEnded(outcome, plan: plan, finalStates: finalStates, rebootList: rebootList, forcedStop: forcedStop) }
    }

    // MARK: - After apt

    /// After a forced stop (rule 25), as visible steps of the cut package (or, when apt was
    /// past every package, in trigger processing, of the last one it finished): dpkg's state
    /// right after the kill, then `APTRepair`'s `dpkg --configure -a`, `apt-get -f install`
    /// and checks. Every package is settled afterwards from dpkg's state then
    /// (`APTRunState.aptEnded`), told apart from the state the kill left.
    private func repair(cut: [Int], after finished: (index: Int, verdict: DriverVerdict)?, killed: [ProcessTree.Member],
                        unexpected: APTUnexpectedEnd?, runner: LineDriverRunner<APTTranslator>) -> APTForcedStop {
        let names = Self.names(of: killed)
        // With nothing cut or held, the last package apt finished keeps the lines (output after
        // its verdict).
        let target = cut.first ?? finished?.index ?? runner.deliver { run in ([], run.lastFinished) }
        let repair = APTRepair(environment: plan.environment, aptGet: aptGet) { report in
            Self.sayRepair(report, on: target, runner: runner)
        }
        let said = unexpected.map { end in
            "installtop: \(end.sentence), not by installtop: a forced stop; "
                + (names.isEmpty ? "nothing of the transaction was left running" : "killed what was left of the transaction: " + names)
        } ?? "installtop: killed \(names.isEmpty ? "apt-get" : "apt-get, " + names)"
        if let target {
            runner.deliver { _ in [.update(index: target, .output(.stdout, said))] }
        } else if let unexpected {
            runner.deliver { run in run.repairSaid(unexpected.sentence) }
        }
        // SIGKILL is not death: a dpkg still dying holds its database lock, and the repair
        // would find it locked.
        Self.waitUntilGone(killed, timeout: .seconds(30))
        // What the kill left, before the repair changes it: results keep the two apart.
        let statesAfterKill = APTPackageState.query(administrativeDirectory: plan.environment.administrativeDirectory)
        if let target {
            let left = plan.changes.filter { !(statesAfterKill[$0.package] ?? .notInstalled).isUntouched(by: $0) }
                .map { "\($0.package) \((statesAfterKill[$0.package] ?? .notInstalled).description)" }
            if !left.isEmpty {
                runner.deliver { _ in [.update(index: target, .output(.stdout, "installtop: right after the kill dpkg had " + left.joined(separator: ", ")))] }
            }
        }
        let repaired = repair.afterForcedStop()
        return APTForcedStop(cut: cut, finishedBeforeKill: finished, statesAfterKill: statesAfterKill, repair: repaired,
                             cutBy: unexpected.map { "a kill from outside (\($0.sentence))" } ?? APTForcedStop.abort)
    }

    /// apt-get ended by a signal, or dpkg did (`end`), with no forced stop of installtop's: kills
    /// what is left of the transaction (a dpkg whose apt-get died, the maintainer script of a
    /// dpkg that died, their children) and tells the job it was stopped by force. Returns what
    /// was killed, and `end` with where dpkg was: the script still running when one was, else
    /// apt's last phase of the package dpkg was on.
    private func stopTheRest(after end: APTUnexpectedEnd, runner: LineDriverRunner<APTTranslator>)
        -> ([ProcessTree.Member], APTUnexpectedEnd) {
        let remains = (transaction?.kind.marker ?? marker).map(APTTransactionRemains.find(marker:)) ?? APTTransactionRemains()
        remains.kill()
        var end = end
        if let script = remains.script {
            end.place = APTUnexpectedEnd.during(script: script.name, of: script.package)
        } else if let package = Self.halfInstalledOne(of: plan) {
            // No script ran: dpkg marks a package half-installed while it unpacks (or removes)
            // its files. apt's last phase may lag behind dpkg's (its status line unread when
            // it died), dpkg's own record of it does not.
            end.place = APTUnexpectedEnd.whileDpkg(package.isRemoval ? .removing : .unpacking, package.package)
        } else {
            end.place = runner.deliver { run in
                ([], run.inFlight.first.flatMap { index in
                    run.tracker.phase(at: index).map { APTUnexpectedEnd.whileDpkg($0, plan.changes[index].package) }
                })
            }
        }
        runner.deliver { _ in [.stoppedByForce(reason: end.sentence)] }
        return (remains.members, end)
    }

    /// apt-get ended on the stop's SIGINT outside a dpkg run (between two, or in its
    /// `DPkg::Post-Invoke` hooks, where apt does not catch it): what it had started outside its
    /// process group (a dpkg in a session of its own, should one have begun) is let end on its
    /// own, as a graceful stop lets running work finish, for up to `remainsGrace`; what still
    /// runs then is killed, and said. (Its process group ended with it, killed at its reap.)
    private func letTheRestEnd(runner: LineDriverRunner<APTTranslator>) {
        let find = { (transaction?.kind.marker ?? marker).map(APTTransactionRemains.find(marker:)) ?? APTTransactionRemains() }
        let remains = find()
        guard !remains.members.isEmpty else { return }
        runner.deliver { run in
            run.repairSaid("waiting for what apt-get started to end: " + Self.names(of: remains.members))
        }
        Self.waitUntilGone(remains.members, timeout: Self.remainsGrace)
        let left = find()
        guard !left.members.isEmpty else { return }
        left.kill()
        runner.deliver { run in
            run.repairSaid("killed what apt-get had started, still running after \(Self.remainsGrace): " + Self.names(of: left.members))
        }
        Self.waitUntilGone(left.members, timeout: .seconds(30))
    }

    /// What the job says when apt-get ended on the stop's SIGINT (`letTheRestEnd`): apt catches
    /// it only while dpkg runs, and the engine ends what is left of apt-get's process group
    /// with it, as Ctrl-C in a terminal would.
    static let endedOnTheStop = "apt-get ended on the stop's SIGINT outside a dpkg run, as Ctrl-C ends it "
        + "(a DPkg::Post-Invoke hook running then, such as needrestart's, ended with it)"

    /// How long what apt-get started is let run on after apt-get ended on the stop: a
    /// `DPkg::Post-Invoke` hook such as needrestart's scan takes seconds.
    static let remainsGrace: Duration = .seconds(60)

    /// `needrestart (4242), sh (4243)`.
    private static func names(of members: [ProcessTree.Member]) -> String {
        members.map { "\($0.name) (\($0.pid))" }.joined(separator: ", ")
    }

    /// The one package of `plan` dpkg has half-installed (`H`) right now, when exactly one is:
    /// the package whose files dpkg was writing or removing when it was cut.
    private static func halfInstalledOne(of plan: APTPlan) -> PackageChange? {
        let states = APTPackageState.query(administrativeDirectory: plan.environment.administrativeDirectory)
        let half = plan.changes.filter { states[$0.package]?.status.dropFirst().first == "H" }
        return half.count == 1 ? half.first : nil
    }

    /// After a graceful stop, on the last package apt finished (`last`, when one did; else on
    /// the one dpkg was on, which apt left unpacked): what the stop left to dpkg, by
    /// `APTRepair.afterGracefulStop`. `aptEnd` (apt-get ended on the stop's SIGINT) is said among
    /// that package's lines and in its verdict.
    private func finishAfterGracefulStop(last: (index: Int, verdict: DriverVerdict)?, aptEnd: String?, runner: LineDriverRunner<APTTranslator>) {
        let target = last?.index ?? runner.deliver { run in ([], run.inFlight.first) }
        if let aptEnd, let target {
            // Among the package's lines, before the steps that follow it, as a repair's are.
            runner.deliver { _ in [.update(index: target, .output(.stdout, "installtop: " + aptEnd))] }
        }
        let repair = APTRepair(environment: plan.environment, aptGet: aptGet) { report in
            Self.sayRepair(report, on: target, runner: runner)
        }
        let outcome = repair.afterGracefulStop(plan: plan.changes)
        runner.deliver { run in run.gracefulStopEnded(last: last, repair: outcome, plan: plan, aptEnd: aptEnd) }
    }

    /// One thing a repair said, on update `index`. Its status texts, each step and the
    /// outcome, are the job's too: a repair acts on the whole root, also when the kill landed
    /// where no package was in flight (in trigger processing, between dpkg runs), and its
    /// outcome stays the job's last word.
    private static func sayRepair(_ report: UpdateReport, on index: Int?, runner: LineDriverRunner<APTTranslator>) {
        runner.deliver { run in
            var reports: [DriverReport] = index.map { [.update(index: $0, report)] } ?? []
            if case .message(let text) = report { reports += run.repairSaid(text) }
            return reports
        }
    }

    // MARK: - Helpers

    /// The package names in Debian's `reboot-required.pkgs` list; empty when there is none.
    static func rebootList(at path: String) -> Set<String> {
        // Read after every package: most of the time there is no list, which `stat` says far
        // more cheaply than Foundation's failed read (an error built and cast each time).
        var status = stat()
        guard stat(path, &status) == 0,
              let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return Set(text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces }.filter { !$0.isEmpty })
    }

    /// Blocks until every one of `members` has exited (no such process, or a zombie whose
    /// locks and files are closed), or `timeout` passes.
    private static func waitUntilGone(_ members: [ProcessTree.Member], timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        func alive(_ pid: pid_t) -> Bool {
            guard Glibc.kill(pid, 0) == 0 || errno == EPERM else { return false }
            guard let stat = ProcFS().stat(of: pid) else { return false }
            return stat.state != "Z"
        }
        while members.contains(where: { alive($0.pid) }), ContinuousClock.now < deadline {
            usleep(10_000)
        }
    }
}
