#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine
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

    /// The gate between dpkg's archives goes as soon as apt has ended: nothing is left to stop.
    func toolEnded() {
        gate?.remove()
    }

    /// What apt's end does, decided on what apt said and how it ended: after a forced stop (or
    /// an end by a signal installtop did not send, `APTUnexpectedEnd`, a forced stop too: rule
    /// 25a, whose rest is killed first) the repair; after a graceful stop what it left to dpkg;
    /// after apt's own failure what it left unfinished; then, always, dpkg's final state, which
    /// settles every package.
    func end(after outcome: UpdateRunOutcome, killed: [ProcessTree.Member]?, in run: inout APTRunState) -> ToolEndPlan<APTEndWork> {
        if let killed { return Self.repair(after: killed, unexpected: nil, in: &run) }
        if let end = APTUnexpectedEnd(outcome: outcome, dpkgDeath: run.dpkgDeath, stopSent: run.stopRequested) {
            let placeFromApt = run.inFlight.first.flatMap { index in
                run.tracker.phase(at: index).map { APTUnexpectedEnd.whileDpkg($0, plan.changes[index].package) }
            }
            return ToolEndPlan(work: .stopTheRest(end, placeFromApt: placeFromApt))
        }
        if run.stopRequested {
            // After a graceful stop, on the last package apt finished (when one did; else on the
            // one dpkg was on, which apt left unpacked).
            let last = run.takeHeld()
            var graceful = APTGracefulEnd(last: last, target: last?.index ?? run.inFlight.first)
            guard case .signaled(SIGINT) = outcome else { return ToolEndPlan(work: .repairAfterGracefulStop(graceful)) }
            graceful.aptEnd = Self.endedOnTheStop
            return ToolEndPlan(reports: run.repairSaid(Self.endedOnTheStop), work: .letTheRestEnd(then: graceful))
        }
        if case .exited(let status) = outcome, status != 0 { return ToolEndPlan(work: .checkLeftUnfinished) }
        return ToolEndPlan(work: .readFinalStates(forcedStop: nil))
    }

    /// What follows what a piece of the end's work found.
    func end(after finding: APTEndFinding, of outcome: UpdateRunOutcome, in run: inout APTRunState) -> ToolEndPlan<APTEndWork> {
        switch finding {
        case .restStopped(let killed, let end):
            var plan = Self.repair(after: killed, unexpected: end, in: &run)
            plan.reports.insert(.stoppedByForce(reason: end.sentence), at: 0)
            return plan
        case .repaired(let kill, let forcedStop):
            // The job's last word says what ended the transaction before what the repair made of it.
            let said = kill.unexpected.map { run.repairSaid($0.sentence + "; " + forcedStop.repair.verdict) } ?? []
            return ToolEndPlan(reports: said, work: .readFinalStates(forcedStop: forcedStop))
        case .restEnded(let graceful):
            return ToolEndPlan(work: .repairAfterGracefulStop(graceful))
        case .gracefulRepaired(let graceful, let repair):
            return ToolEndPlan(reports: run.gracefulStopEnded(last: graceful.last, repair: repair, plan: plan, aptEnd: graceful.aptEnd),
                               work: .readFinalStates(forcedStop: nil))
        case .leftUnfinished(let unfinished):
            // apt failed on its own (rule 25a): nothing is retried, the job's last word says how
            // to finish once the cause is fixed.
            return ToolEndPlan(reports: unfinished.map { run.repairSaid($0) } ?? [], work: .readFinalStates(forcedStop: nil))
        case .finalStates(let finalStates, let rebootList, let forcedStop):
            return ToolEndPlan(reports: run.aptEnded(outcome, plan: plan, finalStates: finalStates, rebootList: rebootList, forcedStop: forcedStop))
        }
    }

    /// The repair after a kill (`killed`). What the kill cut is known only now that everything
    /// apt said before it died has been read (under load its Status-Fd lines may still have been
    /// in the pipe at the kill): the package it was on, or, when apt was past every package (in
    /// trigger processing), the last one it finished, whose success is still held back. The
    /// repair is shown on it; the cut packages get their verdicts at the end, from dpkg's state
    /// after the repair.
    private static func repair(after killed: [ProcessTree.Member], unexpected: APTUnexpectedEnd?,
                               in run: inout APTRunState) -> ToolEndPlan<APTEndWork> {
        let cut = run.inFlight
        for index in cut { _ = run.markFinished(index) }
        let finished = cut.isEmpty ? run.takeHeld() : nil
        // With nothing cut or held, the last package apt finished keeps the lines (output after
        // its verdict).
        let target = cut.first ?? finished?.index ?? run.lastFinished
        return ToolEndPlan(work: .repairAfterKill(APTKill(cut: cut, finishedBeforeKill: finished, target: target, killed: killed,
                                                          unexpected: unexpected)))
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
}
