import InstallEngine

/// The pure half of a running apt job: turns what apt-get says (Status-Fd lines, output lines,
/// its exit) into the engine's `DriverReport`s, by the update's index in the plan.
///
/// - A package's update starts when dpkg first works on it (its first `pmstatus` phase, or an
///   output line such as `Unpacking P`): a package only downloaded is waiting, not running, so
///   the package dpkg is on is the job's current update.
/// - Output lines go to the package they name (`Unpacking P`, `Setting up P`, `dpkg: error
///   processing package P`, `P: …`), else to the package dpkg's output last named, else to the
///   package Status-Fd says is current. Output and Status-Fd come on different pipes, so
///   their order is not reliable under load: the output's own markers come first.
/// - A package's verdict (`Installed`/`Removed`, or its error) is held back until dpkg's output
///   has moved on to another package or apt ends: its last lines may still be on their way, and
///   apt's exit status may still mark the last one (exit 100 with every package installed is
///   `succeededWithErrors`, not success).
/// - Reboot: a package whose name was added to Debian's `reboot-required.pkgs` during the
///   transaction asked for one (rule 26; a package's postinst lists its own name); `rebootList`
///   reads the list when the package finishes. Whether the name came while apt was on that
///   package cannot be told: the list is read when its line is, and the lines lag behind dpkg
///   (under load, a later package's postinst has run by the time an earlier one's `Installed`
///   is read).
struct APTRunState {
    private(set) var tracker: APTTransactionTracker
    private let indexOf: [String: Int]
    /// Verdicts Status-Fd gave whose package dpkg's output has not moved past yet, in order.
    private var held: [(index: Int, verdict: DriverVerdict)] = []
    /// Failures of packages dpkg had unpacked (their configuration failed, or waited for a
    /// dependency that failed): apt's last `dpkg --configure --pending` tries them again, so
    /// their verdict is dpkg's final state, read when apt ends.
    private var awaitingRetry: [(index: Int, reason: String)] = []
    /// What the job was told: which updates started, which got their verdict.
    private(set) var updates = ReportedUpdates()
    /// The packages whose end apt has said (a verdict told, held back, awaiting apt's retry) or
    /// a kill cut: nothing more of apt's words changes them, though the job may not have heard
    /// their verdict yet (`updates` says what it heard).
    private var decided: Set<Int> = []
    /// The most recent package Status-Fd put dpkg on that has not finished.
    private var active: Int?
    /// The package dpkg's output last named as the one it works on.
    private var outputPackage: Int?
    /// Every package dpkg's output has named as the one it works on.
    private var namedByOutput: Set<Int> = []
    /// The order in which Status-Fd first spoke of each package dpkg worked on: apt's order,
    /// which dpkg's output follows too.
    private var statusOrder: [Int: Int] = [:]
    /// The packages in `reboot-required.pkgs` before apt started: listed before, not asked now.
    private let rebootListBefore: Set<String>
    private(set) var stopRequested = false
    /// dpkg's death as apt-get reported it (`Sub-process /usr/bin/dpkg exited unexpectedly`):
    /// with no forced stop of installtop's, a kill from outside (rule 25a).
    private(set) var dpkgDeath: APTUnexpectedEnd?
    /// The gate refused an archive after the stop (`DpkgArchiveGate.refusalNotice` came): dpkg's
    /// errors for the archives it left, and apt's exit status, are the stop's, not a package's.
    private(set) var gateRefused = false
    /// The packages told "stopping after this package", each once.
    private var toldStopping: Set<Int> = []
    /// The job's status text while apt downloads.
    private var downloadStatus: APTDownloadStatus
    /// A download status is the job's text now, to clear when dpkg starts on a package or apt
    /// ends.
    private var showsDownloadStatus = false
    /// The package Status-Fd finished last: a repair after apt ended speaks on it when no
    /// package is in flight and none is held.
    private(set) var lastFinished: Int?
    /// Why a package's replaced version was not kept for undo, by update index: said on the
    /// update when dpkg starts it (the note comes before dpkg's first line).
    private var keepNotes: [Int: [String]] = [:]

    /// - Parameter rebootListBefore: the packages in `reboot-required.pkgs` before apt starts.
    init(plan: APTPlan, rebootListBefore: Set<String>) {
        tracker = APTTransactionTracker(plan: plan.changes, downloads: plan.downloads)
        indexOf = Dictionary(plan.changes.enumerated().map { ($1.package, $0) }, uniquingKeysWith: { first, _ in first })
        self.rebootListBefore = rebootListBefore
        downloadStatus = APTDownloadStatus(downloads: plan.downloads)
    }

    /// The indices of packages apt works on now (what a stop waits for), the one dpkg is on
    /// first: in a batch, dpkg may have begun others (unpacked, or deconfigured for an upgrade
    /// that breaks them) before it.
    var inFlight: [Int] {
        let indices = tracker.inFlight.compactMap { indexOf[$0] }.filter { !decided.contains($0) }
        guard let current = outputPackage ?? active, indices.contains(current) else { return indices }
        return [current] + indices.filter { $0 != current }
    }

    /// Whether dpkg has begun on update `index` (a download alone does not start it).
    func hasStarted(_ index: Int) -> Bool { updates.hasStarted(index) }

    /// Whether update `index` has its verdict (told, held back, awaiting apt's retry).
    func hasFinished(_ index: Int) -> Bool { decided.contains(index) }

    // MARK: - Inputs

    /// One Status-Fd line. `rebootList` is read only when a package finishes.
    mutating func statusLine(_ line: String, rebootList: () -> Set<String>) -> [DriverReport] {
        var reports: [DriverReport] = []
        statusLine(line, rebootList: rebootList, into: &reports)
        return reports
    }

    /// `statusLine(_:rebootList:)`, its reports appended to `reports` (a flood's lines share one
    /// array).
    mutating func statusLine(_ line: String, rebootList: () -> Set<String>, into reports: inout [DriverReport]) {
        if line.hasPrefix(APTKeptVersion.noteLinePrefix) {
            keptVersionNote(line.dropFirst(APTKeptVersion.noteLinePrefix.count), into: &reports)
            return
        }
        if stopRequested, isLeftByTheStop(line) { return }
        // An archive the gate refused is the stop's, also when it came before this run heard of
        // the stop (asked while the run session was still starting): never a package's failure.
        if line.hasPrefix("pmerror:"), let (_, subject, _, text) = APTStatusLine.fields(of: line), subject.hasSuffix(".deb"),
           text == DpkgArchiveGate.refusalError { return }
        // apt fetches every file before dpkg's first run; a dlstatus line read after dpkg's output
        // started a package only arrived late (another pipe) and must not bring the text back.
        if line.hasPrefix("dlstatus:"), updates.started.isEmpty,
           let (_, subject, percent, text) = APTStatusLine.fields(of: line), let item = Int(subject),
           let said = downloadStatus.text(item: item, percent: percent, aptText: text) {
            showsDownloadStatus = true
            reports.append(.jobMessage(said))
        }
        // The tracker's positions are the plan's, as the updates' indices are.
        for event in tracker.consume(line) {
            let index = event.position
            switch event {
            case .reached(_, let phase, let word, let jobPercent):
                // Downloads change nothing on the system: the package waits until dpkg is on it.
                guard phase.touchesThePackage else { continue }
                noteStatusOrder(of: index)
                start(index, into: &reports)
                // dpkg works on this package now. A package that was only downloaded when the
                // stop came is the one apt finishes first.
                if jobPercent != nil, !decided.contains(index) {
                    active = index
                    if stopRequested { tellStopping(index, into: &reports) }
                }
                reports.append(.update(index: index, .progress(percent: phase.percent, message: word)))
                if let jobPercent { reports.append(.jobProgress(percent: jobPercent)) }
            case .note(_, let text):
                guard tracker.phase(at: index)?.touchesThePackage == true else { continue }
                noteStatusOrder(of: index)
                start(index, into: &reports)
                reports.append(.update(index: index, .message(text)))
            case .ended(_, let failure):
                guard !decided.contains(index) else { continue }
                noteStatusOrder(of: index)
                start(index, into: &reports)
                decided.insert(index)
                lastFinished = index
                if active == index { active = nil }
                let verdict: DriverVerdict
                if let failure {
                    let reason = failure.isEmpty ? "dpkg reported an error" : failure
                    if tracker.phase(at: index).map(Self.unpacked.contains) == true {
                        reports.append(.update(index: index, .error(reason)))
                        reports.append(.update(index: index, .message(Self.retryMessage)))
                        awaitingRetry.append((index, reason))
                        continue
                    }
                    verdict = .failed(reason)
                } else {
                    verdict = DriverVerdict(resultCode: .succeeded, rebootRequired: askedForReboot(tracker.package(at: index), listed: rebootList()))
                }
                held.append((index, verdict))
                // When Status-Fd lags, dpkg's output may have moved past this package already.
                if let outputPackage { releaseHeld(except: outputPackage, into: &reports) }
            }
        }
    }

    /// One line apt or dpkg printed.
    mutating func outputLine(_ line: String, on stream: StandardStream) -> [DriverReport] {
        var reports: [DriverReport] = []
        outputLine(line, on: stream, into: &reports)
        return reports
    }

    /// `outputLine(_:on:)`, its reports appended to `reports`.
    mutating func outputLine(_ line: String, on stream: StandardStream, into reports: inout [DriverReport]) {
        // dpkg redraws "(Reading database ... 45%" with carriage returns: keep what a terminal
        // would show last, not every step.
        // (On bytes: Foundation's `contains` of a string was a fifth of the poller's time.)
        let line = line.utf8.contains(UInt8(ascii: "\r")) ? String(line.split(separator: "\r", omittingEmptySubsequences: true).last ?? "") : line
        if stopRequested, line.hasPrefix(DpkgArchiveGate.refusalNotice) { gateRefused = true }
        if dpkgDeath == nil, let death = APTUnexpectedEnd.dpkgDeath(in: line) { dpkgDeath = death }
        if let named = DpkgOutputLine.packageWorkedOn(in: line).flatMap(index(of:)) {
            // dpkg's output is on this package now: every earlier package's lines have come.
            start(named, into: &reports)
            outputPackage = named
            namedByOutput.insert(named)
            releaseHeld(except: named, into: &reports)
            reports.append(.update(index: named, .output(stream, line)))
        } else if let named = DpkgOutputLine.packageSpeaking(in: line).flatMap(index(of:)), updates.hasStarted(named) {
            reports.append(.update(index: named, .output(stream, line)))
        } else if let index = outputPackage ?? firstFinishedUnsettled ?? active {
            // Before dpkg's output named any package, the first one Status-Fd finished is the
            // earliest the output can still be about.
            reports.append(.update(index: index, .output(stream, line)))
        } else {
            updates.holdOutput(stream, line)
        }
    }

    /// Whether `line` is dpkg's error for a package the stop kept it from beginning: once the
    /// gate refuses, dpkg reports every archive it leaves (`pmerror:ARCHIVE.deb:…`), and apt may
    /// still ask it to configure a package among them (`pmerror:P:…` for a package dpkg never
    /// began). Neither is a failure: the engine ends those packages aborted, not started.
    private func isLeftByTheStop(_ line: String) -> Bool {
        guard line.hasPrefix("pmerror:"), let (_, subject, _, _) = APTStatusLine.fields(of: line) else { return false }
        if subject.hasSuffix(".deb") { return true }
        guard let index = index(of: APTTransactionTracker.packageName(subject)) else { return false }
        return !updates.hasStarted(index) && tracker.phase(at: index)?.touchesThePackage != true
    }

    /// The operator asked to stop: messages for the packages apt finishes first.
    mutating func requestStop() -> [DriverReport] {
        guard !stopRequested else { return [] }
        stopRequested = true
        var reports: [DriverReport] = []
        for index in inFlight { tellStopping(index, into: &reports) }
        return reports
    }

    private mutating func tellStopping(_ index: Int, into reports: inout [DriverReport]) {
        guard toldStopping.insert(index).inserted else { return }
        reports.append(.update(index: index, .message(Self.stoppingMessage)))
    }

    /// apt-get ended with `outcome` (and after a forced stop the repair ran): every package of
    /// the plan without a verdict yet is settled from dpkg's final state (`finalStates`: package
    /// → `ii 1.0`-like state and version, read after any repair), whatever apt said or did not
    /// say (rule 23):
    /// - a held verdict is apt's word, checked: a success dpkg does not show is failed, a
    ///   failure dpkg shows done succeeds with errors; the last success gets an error when apt
    ///   failed although no package did;
    /// - a configuration apt tries again at its end is dpkg's final state;
    /// - after a forced stop (`forcedStop`), the packages the kill cut, and the finished one the
    ///   repair was shown on, carry the repair's steps and outcome; a cut package says what the
    ///   kill left it as and what the repair left it as, and succeeds when the repair completed it;
    /// - a package apt never reported that dpkg shows done succeeds ("completed by the repair
    ///   after the forced stop" when dpkg did not show it done right after the kill); one dpkg
    ///   worked on but did not finish is aborted (after a stop) or failed, with its state.
    ///
    /// Packages dpkg never touched get nothing here: the engine ends them aborted, not started
    /// (after a stop), or failed, not reached. An empty `finalStates` is a database that could
    /// not be read: it then contradicts nothing apt said. `rebootList` is `reboot-required.pkgs`
    /// as apt left it: the reboots of the verdicts made here.
    mutating func aptEnded(_ outcome: UpdateRunOutcome, plan: APTPlan, finalStates: [String: APTPackageState],
                           rebootList: Set<String>, forcedStop: APTForcedStop? = nil) -> [DriverReport] {
        var reports: [DriverReport] = []
        if showsDownloadStatus {
            showsDownloadStatus = false
            reports.append(.jobMessage(nil))
        }
        // After the gate's refusal apt exits 100 for dpkg's errors about the archives it left.
        if case .exited(let status) = outcome, status != 0, let last = held.last, !tracker.hasFailures, !gateRefused {
            reports.append(.update(index: last.index, .error("apt-get exited with status \(status)")))
        }
        let ending = APTEnding(plan: plan, finalStates: finalStates, forcedStop: forcedStop)
        let before = rebootListBefore
        let reboot = { (index: Int) in Self.listedReboot(plan.changes[index].package, in: rebootList, before: before) }
        for entry in held {
            updates.finish(entry.index, ending.checked(entry.verdict, of: entry.index, rebootRequired: reboot(entry.index)), into: &reports)
        }
        held.removeAll()
        if let forcedStop, let last = forcedStop.finishedBeforeKill {
            let verdict = ending.checked(last.verdict, of: last.index, rebootRequired: reboot(last.index))
            updates.finish(last.index, Self.verdict(
                verdict, repair: forcedStop.repair, after: "\(forcedStop.cutBy) cut apt after it (in trigger processing)"), into: &reports)
        }
        for (index, reason) in awaitingRetry {
            let change = plan.changes[index]
            guard ending.isDone(index) else {
                updates.finish(index, .failed(reason), into: &reports)
                continue
            }
            // dpkg configured it again (apt's retry at its end, or the repair after a forced
            // stop): its result is dpkg's, the first attempt's error stays reported (succeeded
            // with errors).
            let said = ending.completedByRepair(index) ? ending.doneText(of: index) : "configured again: " + ending.doneText(of: index) + " at the end"
            reports.append(.update(index: index, .progress(percent: 100, message: APTPackagePhase.doneWord(for: change.action))))
            updates.finish(index, DriverVerdict(
                resultCode: .succeeded, reason: "\(said); the first attempt failed: \(reason)",
                rebootRequired: reboot(index)), into: &reports)
        }
        awaitingRetry.removeAll()
        for index in forcedStop?.cut ?? [] {
            if ending.isDone(index), forcedStop?.repair.leftBroken == false {
                reports.append(.update(index: index, .progress(percent: 100, message: APTPackagePhase.doneWord(for: plan.changes[index].action))))
            }
            updates.finish(index, ending.cutVerdict(of: index, rebootRequired: reboot(index)), into: &reports)
        }
        let aborted = stopRequested || forcedStop != nil
        var exitStatus: Int32 = 0
        if case .exited(let status) = outcome { exitStatus = status }
        for (index, change) in plan.changes.enumerated() where !decided.contains(index) {
            let verdict: DriverVerdict
            if ending.isDone(index) {
                // A reinstall leaves no trace in dpkg's state: one apt never began after a stop
                // did not run.
                if change.action == .reinstall, aborted, !updates.hasStarted(index) { continue }
                // dpkg's final state says the package was done although apt did not say so (apt
                // prints no `Removed` line for a plain removal; the repair after a forced stop
                // completes packages apt never began).
                verdict = DriverVerdict(resultCode: .succeeded, reason: ending.doneText(of: index), rebootRequired: reboot(index))
            } else if ending.wasWorkedOn(index) {
                let reason = "apt did not finish it: " + ending.statesText(of: index)
                verdict = aborted
                    ? DriverVerdict(resultCode: .aborted, reason: reason, hResult: .operationCancelled)
                    : .failed(reason, code: exitStatus)
            } else {
                continue
            }
            decided.insert(index)
            start(index, into: &reports)
            if verdict.resultCode == .succeeded {
                reports.append(.update(index: index, .progress(percent: 100, message: APTPackagePhase.doneWord(for: change.action))))
            }
            updates.finish(index, verdict, into: &reports)
        }
        return reports
    }

    /// `verdict` with the repair that ran after it (`context` says why) in its reason; failed
    /// and `systemLeftBroken` when that left dpkg broken.
    static func verdict(_ verdict: DriverVerdict, repair: APTRepairOutcome, after context: String) -> DriverVerdict {
        var result = verdict
        result.reason = repair.reason(after: [verdict.reason, context].compactMap { $0 }.joined(separator: "; "))
        if repair.leftBroken {
            result.resultCode = .failed
            result.hResult = .systemLeftBroken
        }
        return result
    }

    /// A graceful stop's end: what the stop left to dpkg was finished (`repair`,
    /// `APTRepair.afterGracefulStop`) after the last package apt finished (`last`, its verdict
    /// held until now, when one did), whose result carries it. When it leaves apt's
    /// dependencies unmet with dpkg consistent (the stop came between two packages one of
    /// which needs the other at its own version), the verdict goes on the plan's packages
    /// `apt-get check` names that apt had not begun, ended aborted and `systemLeftBroken`: they
    /// are what is left unmet, and `last` is as the job asked. Otherwise (no such package in the
    /// plan, or dpkg itself not consistent) it goes on `last`, as after a forced stop. Without
    /// `last` the steps were the job's alone, and the packages are settled from dpkg's state
    /// when apt's end is (`aptEnded`).
    /// `aptEnd` says how apt-get ended when that is worth saying on `last` (it ended on the
    /// stop's SIGINT itself).
    mutating func gracefulStopEnded(last: (index: Int, verdict: DriverVerdict)?, repair: APTRepairOutcome, plan: APTPlan,
                                    aptEnd: String? = nil) -> [DriverReport] {
        let context = ["the job stopped after it, as asked", aptEnd].compactMap { $0 }.joined(separator: "; ")
        let unmet = repair.leftBroken && repair.dpkgConsistent
            ? repair.unmet.keys.compactMap { index(of: $0) }.filter { $0 != last?.index && !decided.contains($0) && !updates.hasStarted($0) }.sorted()
            : []
        var reports: [DriverReport] = []
        if let last {
            var lastVerdict = Self.verdict(last.verdict, repair: repair, after: context)
            if !unmet.isEmpty {
                lastVerdict = last.verdict
                lastVerdict.reason = repair.reason(after: [last.verdict.reason, context].compactMap { $0 }.joined(separator: "; "),
                                                   verdictOn: unmet.map { plan.changes[$0].package })
            }
            updates.finish(last.index, lastVerdict, into: &reports)
        }
        for index in unmet {
            decided.insert(index)
            start(index, into: &reports)
            updates.finish(index, DriverVerdict(
                resultCode: .aborted,
                reason: repair.verdict + "; not started: the stop came before it, and it is left with "
                    + (repair.unmet[plan.changes[index].package] ?? "unmet dependencies"),
                hResult: .systemLeftBroken), into: &reports)
        }
        return reports
    }

    /// Whether `package` asked for a reboot: `listed` (the list read after its end) has its
    /// name and the list before apt started did not.
    private func askedForReboot(_ package: String, listed: Set<String>) -> Bool {
        listed.contains(package) && !rebootListBefore.contains(package)
    }

    /// For a verdict made from dpkg's final state, not from the package's end: true when it
    /// asked for a reboot (in `list`, not in the list `before` apt started), else no word on it
    /// (rule 17 decides, as it does for any driver that cannot tell).
    private static func listedReboot(_ package: String, in list: Set<String>, before: Set<String>) -> Bool? {
        list.contains(package) && !before.contains(package) ? true : nil
    }

    /// The job's status text is a step of the repair after apt (or its outcome): a download
    /// status still shown is replaced by it, and not cleared when apt's end is read.
    mutating func repairSaid(_ text: String) -> [DriverReport] {
        showsDownloadStatus = false
        return [.jobMessage(text)]
    }

    /// Update `index` got its verdict elsewhere (the repair after a forced stop).
    mutating func markFinished(_ index: Int) -> Bool {
        if active == index { active = nil }
        return decided.insert(index).inserted
    }

    /// Starts update `index` if dpkg had not begun on it yet (output that came before any
    /// package started is its): the download status goes, the notes on its kept version are
    /// said, and after a stop it is told it is the one apt finishes.
    private mutating func start(_ index: Int, into reports: inout [DriverReport]) {
        guard updates.start(index, into: &reports) else { return }
        if showsDownloadStatus {
            // dpkg works on a package now: it speaks, the download is over.
            showsDownloadStatus = false
            reports.append(.jobMessage(nil))
        }
        for note in keepNotes.removeValue(forKey: index) ?? [] {
            reports.append(.update(index: index, .output(.stderr, note)))
            reports.append(.update(index: index, .message(note)))
        }
        if stopRequested, !decided.contains(index) { tellStopping(index, into: &reports) }
    }

    /// `PACKAGE:NOTE` after `APTKeptVersion.noteLinePrefix`: kept for the package's start, or
    /// said at once when it has started (it never has: the note comes before dpkg runs).
    private mutating func keptVersionNote(_ text: Substring, into reports: inout [DriverReport]) {
        guard let colon = text.firstIndex(of: ":"), let index = index(of: String(text[..<colon])) else {
            reports.append(.ignoredLine)
            return
        }
        let note = String(text[text.index(after: colon)...])
        if updates.hasStarted(index) {
            reports.append(.update(index: index, .output(.stderr, note)))
        } else {
            keepNotes[index, default: []].append(note)
        }
    }

    private mutating func noteStatusOrder(of index: Int) {
        if statusOrder[index] == nil { statusOrder[index] = statusOrder.count }
    }

    /// Passes on the held verdicts of packages dpkg's output has moved past now that it is on
    /// `current`: those it named before, and those apt worked on before `current` (their
    /// lines, marked or not, came before this one).
    private mutating func releaseHeld(except current: Int, into reports: inout [DriverReport]) {
        let (named, order) = (namedByOutput, statusOrder)
        let currentOrder = order[current] ?? Int.max
        let passed = { (index: Int) in index != current && (named.contains(index) || (order[index] ?? Int.max) < currentOrder) }
        for entry in held where passed(entry.index) { updates.finish(entry.index, entry.verdict, into: &reports) }
        held.removeAll { passed($0.index) }
    }

    /// The package Status-Fd finished first among those whose verdict is still held or waits
    /// for apt's retry.
    private var firstFinishedUnsettled: Int? {
        [held.first?.index, awaitingRetry.first?.index].compactMap { $0 }.min { (statusOrder[$0] ?? Int.max) < (statusOrder[$1] ?? Int.max) }
    }

    private func index(of package: String) -> Int? {
        indexOf[package] ?? indexOf[DpkgOutputLine.withoutArchiveNumber(package)]
    }

    /// Takes the verdict held back for the last package that finished, which apt has not
    /// confirmed by ending: a repair after apt (cut by a forced stop in trigger processing, or
    /// stopped before them) gives that package its verdict instead.
    mutating func takeHeld() -> (index: Int, verdict: DriverVerdict)? {
        held.popLast()
    }

    /// The phases of a package dpkg has unpacked: a failure from there on leaves it unpacked
    /// or half-configured, which apt's last `dpkg --configure --pending` tries again.
    private static let unpacked: Set<APTPackagePhase> = [.installing, .preparingToConfigure, .configuring]

    /// What a package whose configuration failed says while apt goes on.
    static let retryMessage = "configuration failed; apt tries it again at its end"

    /// Front-loaded: the status column is narrow.
    static let stoppingMessage = "stopping after this package (abort requested)"
}
