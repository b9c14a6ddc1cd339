#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import InstallEngine

/// The pure half of a running dnf job: turns what the helper says (its events on fd 3, dnf's
/// own lines on stdout and stderr) into the engine's `DriverReport`s, by the update's index in
/// the plan.
///
/// - Downloads are the job's text (`downloading 2 of 5 packages · 1.2 MB of 3.4 MB`): a package
///   only downloaded is waiting, not running.
/// - A package's update starts when rpm first works on it. Its bar moves through rpm's phases
///   of it (`DNFPackagePhase`: reading its file, `%pre`, its files by rpm's count, `%post`, an
///   upgrade's cleanup of the old version) and never goes back. Scriptlet output, stdout and
///   stderr, is the update's output, under the package the helper names (it reads what the
///   scriptlets write at rpm's callbacks, in order with its events).
/// - rpm runs every package's scriptlets before it moves on, so a package rpm has moved past is
///   done (`completedAt`, the end its result records); its verdict waits for the transaction's
///   end, when it is read from the rpm database (`settle`), never taken from the helper's word.
/// - A stop before rpm's transaction ends the job at once; once rpm runs it cannot be cut
///   (rpm defers signals, and a cut leaves duplicate entries): the stop waits for its end, and
///   a forced stop is refused (`killRefusal`).
struct DNFRunState {
    let plan: DNFPlan
    private let indexOf: [String: Int]
    /// What the job was told: which updates started, which got their verdict.
    private(set) var updates = ReportedUpdates()
    /// When rpm moved past a package (its scriptlets done), by index.
    private(set) var completedAt: [Int: Date] = [:]
    /// What failed in a package's scriptlets, by index.
    private(set) var scriptletErrors: [Int: [String]] = [:]
    /// The package rpm works on now.
    private(set) var current: Int?
    /// rpm's transaction has begun: a stop now waits for its end.
    private(set) var rpmRunning = false
    /// rpm's transaction has ended; its errors, when it failed.
    private(set) var rpmEnded: (ok: Bool, errors: [String])?
    /// The helper's refusal before anything changed (download failed, the plan changed).
    private(set) var refusal: DNFPlanError?
    private(set) var stopRequested = false
    /// The helper confirmed that a stop ended it before rpm ran.
    private(set) var stoppedBeforeRPM = false
    /// The package rpm was on when the helper was killed from outside (rule 25a): what rpm
    /// recorded of it may lack its scriptlets.
    private var cutByKill: Int?
    /// The versions the transaction takes away, kept for undo or not, as the helper said.
    private(set) var kept: [DNFKeptVersion] = []
    /// Bytes fetched so far and in all, by package.
    private var downloads: [Int: (done: Int64, total: Int64)] = [:]
    /// The highest percent each package's bar was given: a phase never lowers it (`JobPercent`).
    private(set) var percents: [Int: JobPercent] = [:]
    /// The job's text says rpm prepares the transaction: its first package's step says it runs.
    private var saysPreparing = false

    init(plan: DNFPlan) {
        self.plan = plan
        indexOf = Dictionary(plan.items.enumerated().map { ($1.nameArch, $0) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: - Inputs

    /// One line of the helper's fd 3; `false` when it is not an event of the protocol (the
    /// caller counts it as ignored).
    mutating func eventLine(_ line: String, now: Date, into reports: inout [DriverReport]) -> Bool {
        guard let event = DNFHelperEvent(line: line) else { return false }
        switch event {
        case .download(let nameArch, let done, let total):
            guard let index = indexOf[nameArch] else { return false }
            downloads[index] = (done, total)
            reports.append(.jobMessage(downloadText))
        case .downloaded(let nameArch, let ok, let message):
            guard let index = indexOf[nameArch] else { return false }
            if ok {
                let total = downloads[index]?.total ?? plan.items[index].size ?? 0
                downloads[index] = (total, total)
                reports.append(.jobMessage(downloadText))
            } else {
                reports.append(.jobMessage("download of \(plan.items[index].nameArch) failed: \(message ?? "no reason given")"))
            }
        case .rpmStart:
            rpmRunning = true
            reports.append(.jobMessage(stopRequested ? Self.stopWaits : "rpm runs the transaction"))
        case .progress(let nameArch, let action, let done, let total, let scriptlet):
            guard let index = indexOf[nameArch] else { return false }
            moveTo(index, now: now, into: &reports)
            let phase = DNFPackagePhase(action: action, done: done, total: total, scriptlet: scriptlet)
            advance(index, to: phase?.percent(of: plan.items[index]), text: phase?.text ?? Self.phaseText(action), into: &reports)
        case .transactionProgress(let action):
            saysPreparing = action == "prepare"
            reports.append(.jobMessage(action == "prepare" ? "rpm prepares the transaction" : "rpm runs the transaction's last scriptlets"))
        case .scriptletOutput(let nameArch, let text, let stream):
            guard let index = indexOf[nameArch] else { return false }
            moveTo(index, now: now, into: &reports)
            reports.append(.update(index: index, .output(stream, text)))
        case .scriptletError(let nameArch, let message):
            guard let index = indexOf[nameArch] else { return false }
            moveTo(index, now: now, into: &reports)
            scriptletErrors[index, default: []].append(message)
            reports.append(.update(index: index, .error(message)))
        case .rpmEnd(let ok, let errors):
            if let current { leave(current, now: now, into: &reports) }
            current = nil
            rpmRunning = false
            rpmEnded = (ok, errors)
            reports.append(.jobMessage(ok ? "rpm's transaction ended" : "rpm's transaction failed: " + errors.joined(separator: "; ")))
        case .error(let kind, let message):
            refusal = DNFPlanError(kind: kind, message: message)
            reports.append(.jobMessage("nothing was installed: " + message))
        case .kept(let version):
            kept.append(version)
        case .stopped:
            stoppedBeforeRPM = true
            reports.append(.jobMessage(Self.stoppedBeforeRPMText))
        case .stopDeferred:
            reports.append(.jobMessage(Self.stopWaits))
        case .item, .planned, .final:
            // The plan again (the run checks it is the one planned) and the helper's own reading
            // of the database: the verdicts are read from the rpm database itself.
            break
        }
        return true
    }

    /// One line dnf printed on stdout or stderr: the output of the package rpm works on, or of
    /// the first it begins.
    mutating func outputLine(_ line: String, on stream: StandardStream, into reports: inout [DriverReport]) {
        if let current {
            reports.append(.update(index: current, .output(stream, line)))
        } else {
            // Before rpm began on any package: given to the first one it begins.
            updates.holdOutput(stream, line)
        }
    }

    /// The job asked for a stop: before rpm's transaction it ends the helper at once; during it,
    /// the stop waits for its end. Before the helper's word that rpm began has been read, the
    /// stop promises nothing: rpm may have begun since (the helper's answer, `stopped` or
    /// `stop-deferred`, says which).
    mutating func requestStop() -> [DriverReport] {
        guard !stopRequested else { return [] }
        stopRequested = true
        guard rpmRunning else { return [.jobMessage(Self.stopAsked)] }
        var reports: [DriverReport] = [.jobMessage(Self.stopWaits)]
        if let current { reports.append(.update(index: current, .message("rpm's transaction goes on to its end: it cannot be cut safely"))) }
        return reports
    }

    /// Why a forced stop is refused now (rpm runs), with what says so; `nil` lets it kill.
    func killRefusal() -> [DriverReport]? {
        guard rpmRunning else { return nil }
        return [.jobMessage("forced stop refused: rpm's transaction is running and cannot be cut safely (rpm defers signals; "
                            + "a cut leaves the rpm database with duplicate entries); it ends on its own")]
    }

    // MARK: - The end

    /// The helper ended by `signal` with no forced stop of installtop's. SIGINT once a stop was
    /// asked is the stop's own, come before the helper took signals itself (its Python starts
    /// for a few hundred milliseconds): before rpm's transaction, it ends the job as the
    /// helper's `stopped` does. Any other signal is a kill from outside (`killedFromOutside`).
    mutating func ended(by signal: Int32) -> [DriverReport] {
        guard signal == SIGINT, stopRequested, !rpmRunning, rpmEnded == nil else { return killedFromOutside(by: signal) }
        stoppedBeforeRPM = true
        return [.jobMessage(Self.stoppedBeforeRPMText)]
    }

    /// The helper was ended by `signal`, not by installtop: the job is stopped by force (rule
    /// 25a), saying where rpm was.
    mutating func killedFromOutside(by signal: Int32) -> [DriverReport] {
        let place = rpmRunning ? "during rpm's transaction" + (current.map { ", in \(plan.items[$0].nameArch)" } ?? "")
            : (rpmEnded == nil ? "before rpm's transaction" : "after rpm's transaction")
        let reason = "the dnf helper was killed by signal \(signal) \(place), not by installtop"
        if rpmRunning { cutByKill = current }
        rpmRunning = false
        return [.stoppedByForce(reason: reason), .jobMessage(reason + "; every package is settled from the rpm database")]
    }

    /// Every package's verdict, once the helper has ended (`outcome`): from `installed`, what
    /// the rpm database holds of each package now (by `name.arch`, each version installed).
    /// Packages rpm never began get none here: the engine ends them aborted, not started,
    /// unless the helper refused before anything ran (each then fails with its reason).
    mutating func settle(outcome: UpdateRunOutcome, installed: [String: [String]]?, rebootRule: DNFRebootRule,
                         now: Date) -> [DriverReport] {
        var reports: [DriverReport] = []
        if let current, completedAt[current] == nil { completedAt[current] = now }
        current = nil
        if let refusal, updates.started.isEmpty {
            reports.append(.unstartedUpdatesFinished(.failed("not installed: " + refusal.message)))
            return reports
        }
        let endedBeforeRPM = stoppedBeforeRPM || (rpmEnded == nil && updates.started.isEmpty)
        for (index, item) in plan.items.enumerated() where updates.hasStarted(index) || (!endedBeforeRPM && installed != nil) {
            guard var verdict = verdict(of: item, at: index, installed: installed, outcome: outcome) else { continue }
            if verdict.resultCode == .succeeded || verdict.resultCode == .succeededWithErrors {
                verdict.rebootRequired = rebootRule.asksForReboot(item.name)
                // rpm may have said nothing of it (an obsoleted package is erased with its replacer).
                updates.start(index, into: &reports)
                reports.append(.update(index: index, .progress(percent: 100, message: Self.doneWord(item))))
            } else if !updates.hasStarted(index) {
                continue
            }
            verdict.endedAt = completedAt[index]
            updates.finish(index, verdict, into: &reports)
        }
        reports.append(.jobMessage(nil))
        return reports
    }

    /// The verdict of `item` from the rpm database; `nil` for a package rpm never began whose
    /// state is as before (the engine says it was not started).
    private func verdict(of item: DNFPlanItem, at index: Int, installed: [String: [String]]?, outcome: UpdateRunOutcome) -> DriverVerdict? {
        guard let installed else {
            return .failed("the rpm database could not be read after the transaction (helper \(outcome.summary))")
        }
        let versions = installed[item.nameArch] ?? []
        let errors = scriptletErrors[index] ?? []
        let done: Bool
        let state = versions.isEmpty ? "not installed" : "the rpm database holds " + versions.joined(separator: " and ")
        switch item.action {
        case .remove, .obsoleted:
            done = !versions.contains(item.oldVersion ?? "")
        case .install, .reinstall:
            // Among others: an install-only package (a kernel) is installed beside its other versions.
            done = versions.contains(item.newVersion ?? "")
        case .upgrade, .downgrade:
            // Exactly the new version: one whose cleanup did not run leaves both (a duplicate).
            done = versions == [item.newVersion ?? ""]
        }
        guard done else {
            if !updates.hasStarted(index), versions.contains(item.oldVersion ?? "\u{0}") || (item.action == .install && versions.isEmpty) {
                return nil
            }
            let reason = "rpm did not finish it: " + state + (errors.isEmpty ? "" : "; " + errors.joined(separator: "; "))
            return stopRequested ? DriverVerdict(resultCode: .aborted, reason: reason, hResult: .operationCancelled) : .failed(reason)
        }
        if index == cutByKill {
            // rpm records a package before its %post: the kill may have cut its scriptlets.
            return DriverVerdict(resultCode: .succeededWithErrors,
                                 reason: "rpm had recorded it when the helper was killed during its work on it: its scriptlets may not "
                                     + "have run to their end (dnf reinstall \(item.name) runs them again)")
        }
        guard errors.isEmpty else {
            // rpm keeps a package whose scriptlet failed: installed, with that error.
            return DriverVerdict(resultCode: .succeededWithErrors, reason: errors.joined(separator: "; "))
        }
        return .succeeded
    }

    // MARK: - Helpers

    /// Makes `index` the package rpm works on: the one before is done (rpm ran its scriptlets
    /// before moving on), and `index` starts if it had not.
    private mutating func moveTo(_ index: Int, now: Date, into reports: inout [DriverReport]) {
        guard current != index else { return }
        if saysPreparing {
            saysPreparing = false
            reports.append(.jobMessage(stopRequested ? Self.stopWaits : "rpm runs the transaction"))
        }
        if let current { leave(current, now: now, into: &reports) }
        current = index
        updates.start(index, into: &reports)
    }

    /// rpm moved past `index`: it is done (`completedAt`), and its bar says so once its files
    /// are in place (an upgrade's new version waits at 90 % for its old version's cleanup).
    private mutating func leave(_ index: Int, now: Date, into reports: inout [DriverReport]) {
        if completedAt[index] == nil { completedAt[index] = now }
        let item = plan.items[index]
        guard let percent = DNFPackagePhase.percentPast(item, at: percents[index, default: .zero].value) else { return }
        advance(index, to: percent, text: percent == 100 ? Self.doneWord(item) : "new version installed; the old one's cleanup follows",
                into: &reports)
    }

    /// Gives `index`'s bar `percent` with `text`, or only the text when the bar is as high
    /// already: rpm's phases move it forward, never back (a tiny payload's files all at once,
    /// `%posttrans` after the package is done).
    private mutating func advance(_ index: Int, to percent: Double?, text: String, into reports: inout [DriverReport]) {
        if let percent, percents[index, default: .zero].advance(to: percent) {
            reports.append(.update(index: index, .progress(percent: percents[index, default: .zero].value, message: text)))
        } else {
            reports.append(.update(index: index, .message(text)))
        }
    }

    /// The status text of rpm's phase: `installing`, `cleaning up the old version`.
    static func phaseText(_ action: String) -> String {
        switch action {
        case "install", "obsolete": return "installing"
        case "upgrade": return "upgrading"
        case "downgrade": return "downgrading"
        case "reinstall": return "reinstalling"
        case "remove", "obsoleted": return "removing"
        case "cleanup": return "cleaning up the old version"
        case "scriptlet": return "running scriptlets"
        case "trigger": return "running triggers"
        case "verify": return "verifying"
        default: return action
        }
    }

    private static func doneWord(_ item: DNFPlanItem) -> String {
        switch item.action {
        case .install: return "installed"
        case .upgrade: return "upgraded"
        case .downgrade: return "downgraded"
        case .reinstall: return "reinstalled"
        case .remove: return "removed"
        case .obsoleted: return "obsoleted"
        }
    }

    static let stopAsked = "stopping dnf: nothing is installed if rpm's transaction has not begun; once it has, the stop waits for its end"

    static let stoppedBeforeRPMText = "stopped before rpm's transaction: nothing was installed"

    static let stopWaits = "stop requested: rpm's transaction is running and cannot be cut safely; it stops at its end"

    /// `downloading 2 of 5 packages · 1.2 MB of 3.4 MB`.
    private var downloadText: String {
        let fetching = plan.items.filter { !$0.isRemoval }
        let total = plan.downloadSize
        let done = downloads.values.reduce(Int64(0)) { $0 + $1.done }
        let complete = downloads.values.count(where: { $0.total > 0 && $0.done >= $0.total })
        return "downloading \(min(complete + 1, fetching.count)) of \(fetching.count) packages · "
            + "\(ByteCountText.text(done)) of \(ByteCountText.text(total))"
    }
}
