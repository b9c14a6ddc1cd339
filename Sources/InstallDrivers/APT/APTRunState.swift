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
    /// Which package each line is about.
    private var router: APTLineRouter
    /// Verdicts Status-Fd gave whose package dpkg's output has not moved past yet, and failures
    /// of packages dpkg had unpacked (their configuration failed, or waited for a dependency
    /// that failed), which apt's last `dpkg --configure --pending` tries again: their verdict is
    /// dpkg's final state, read when apt ends.
    var verdicts = APTHeldVerdicts()
    /// What the job was told: which updates started, which got their verdict.
    var updates = ReportedUpdates()
    /// The packages whose end apt has said (a verdict told, held back, awaiting apt's retry) or
    /// a kill cut: nothing more of apt's words changes them, though the job may not have heard
    /// their verdict yet (`updates` says what it heard).
    var decided: Set<Int> = []
    /// The packages in `reboot-required.pkgs` before apt started: listed before, not asked now.
    let rebootListBefore: Set<String>
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
    var showsDownloadStatus = false
    /// The package Status-Fd finished last: a repair after apt ended speaks on it when no
    /// package is in flight and none is held.
    private(set) var lastFinished: Int?
    /// Why a package's replaced version was not kept for undo, by update index: said on the
    /// update when dpkg starts it (the note comes before dpkg's first line).
    private var keepNotes: [Int: [String]] = [:]

    /// - Parameter rebootListBefore: the packages in `reboot-required.pkgs` before apt starts.
    init(plan: APTPlan, rebootListBefore: Set<String>) {
        router = APTLineRouter(plan: plan)
        self.rebootListBefore = rebootListBefore
        downloadStatus = APTDownloadStatus(downloads: plan.downloads)
    }

    /// The indices of packages apt works on now (what a stop waits for), the one dpkg is on
    /// first: in a batch, dpkg may have begun others (unpacked, or deconfigured for an upgrade
    /// that breaks them) before it.
    var inFlight: [Int] { router.inFlight(excluding: decided) }

    /// apt's Status-Fd lines as read so far.
    var tracker: APTTransactionTracker { router.tracker }

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
        if line == APTKeptVersion.armedStopLine {
            // An armed job lacks a version its revert needs: apt stops before dpkg, as on the
            // engine's stop, so no package is failed for apt's exit (a job that had not begun
            // when this came is aborted from its start and has nothing left to end).
            guard !stopRequested else { return }
            reports += requestStop()
            reports.append(.stoppedBeforeChanges)
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
        for event in router.consume(line) {
            let index = event.position
            switch event {
            case .reached(_, let phase, let word, let jobPercent):
                // Downloads change nothing on the system: the package waits until dpkg is on it.
                guard phase.touchesThePackage else { continue }
                router.statusSpoke(of: index)
                start(index, into: &reports)
                // dpkg works on this package now. A package that was only downloaded when the
                // stop came is the one apt finishes first.
                if jobPercent != nil, !decided.contains(index) {
                    router.dpkgWorks(on: index)
                    if stopRequested { tellStopping(index, into: &reports) }
                }
                reports.append(.update(index: index, .progress(percent: phase.percent, message: word)))
                if let jobPercent { reports.append(.jobProgress(percent: jobPercent)) }
            case .note(_, let text):
                guard tracker.phase(at: index)?.touchesThePackage == true else { continue }
                router.statusSpoke(of: index)
                start(index, into: &reports)
                reports.append(.update(index: index, .message(text)))
            case .ended(_, let failure):
                guard !decided.contains(index) else { continue }
                router.statusSpoke(of: index)
                start(index, into: &reports)
                decided.insert(index)
                lastFinished = index
                router.finished(index)
                let verdict: DriverVerdict
                if let failure {
                    let reason = failure.isEmpty ? "dpkg reported an error" : failure
                    if tracker.phase(at: index).map(Self.unpacked.contains) == true {
                        reports.append(.update(index: index, .error(reason)))
                        reports.append(.update(index: index, .message(Self.retryMessage)))
                        verdicts.awaitRetry(of: index, reason: reason)
                        continue
                    }
                    verdict = .failed(reason)
                } else {
                    verdict = DriverVerdict(resultCode: .succeeded, rebootRequired: askedForReboot(tracker.package(at: index), listed: rebootList()))
                }
                verdicts.hold(verdict, of: index)
                // When Status-Fd lags, dpkg's output may have moved past this package already.
                if let outputPackage = router.outputPackage { releaseHeld(except: outputPackage, into: &reports) }
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
            router.outputWorks(on: named)
            releaseHeld(except: named, into: &reports)
            reports.append(.update(index: named, .output(stream, line)))
        } else if let named = DpkgOutputLine.packageSpeaking(in: line).flatMap(index(of:)), updates.hasStarted(named) {
            reports.append(.update(index: named, .output(stream, line)))
        } else if let index = router.outputPackage ?? router.firstSpokenOf(verdicts.firstUnsettled) ?? router.active {
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

    /// Whether `package` asked for a reboot: `listed` (the list read after its end) has its
    /// name and the list before apt started did not.
    private func askedForReboot(_ package: String, listed: Set<String>) -> Bool {
        listed.contains(package) && !rebootListBefore.contains(package)
    }

    /// The job's status text is a step of the repair after apt (or its outcome): a download
    /// status still shown is replaced by it, and not cleared when apt's end is read.
    mutating func repairSaid(_ text: String) -> [DriverReport] {
        showsDownloadStatus = false
        return [.jobMessage(text)]
    }

    /// Update `index` got its verdict elsewhere (the repair after a forced stop).
    mutating func markFinished(_ index: Int) -> Bool {
        router.finished(index)
        return decided.insert(index).inserted
    }

    /// Starts update `index` if dpkg had not begun on it yet (output that came before any
    /// package started is its): the download status goes, the notes on its kept version are
    /// said, and after a stop it is told it is the one apt finishes.
    mutating func start(_ index: Int, into reports: inout [DriverReport]) {
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

    /// Passes on the held verdicts of packages dpkg's output has moved past now that it is on
    /// `current`: those it named before, and those apt worked on before `current` (their
    /// lines, marked or not, came before this one).
    private mutating func releaseHeld(except current: Int, into reports: inout [DriverReport]) {
        let router = router
        for entry in verdicts.release(where: { router.hasPassed($0, current: current) }) {
            updates.finish(entry.index, entry.verdict, into: &reports)
        }
    }

    /// The plan position of `package`; `nil` for a package outside the plan.
    func index(of package: String) -> Int? {
        router.index(of: package)
    }

    /// Takes the verdict held back for the last package that finished, which apt has not
    /// confirmed by ending: a repair after apt (cut by a forced stop in trigger processing, or
    /// stopped before them) gives that package its verdict instead.
    mutating func takeHeld() -> (index: Int, verdict: DriverVerdict)? {
        verdicts.takeLast()
    }

    /// The phases of a package dpkg has unpacked: a failure from there on leaves it unpacked
    /// or half-configured, which apt's last `dpkg --configure --pending` tries again.
    private static let unpacked: Set<APTPackagePhase> = [.installing, .preparingToConfigure, .configuring]

    /// What a package whose configuration failed says while apt goes on.
    static let retryMessage = "configuration failed; apt tries it again at its end"

    /// Front-loaded: the status column is narrow.
    static let stoppingMessage = "stopping after this package (abort requested)"
}
