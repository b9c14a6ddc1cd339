import InstallEngine

/// The pure half of a running apt job: turns what apt-get says (Status-Fd lines, output lines,
/// its exit) into the engine's `DriverReport`s, by the update's index in the plan.
///
/// - A package's success (`Installed`/`Removed`) is held back until the next package starts or
///   apt ends, so that apt's exit status can still mark the last one (exit 100 with every
///   package installed is `succeededWithErrors`, not success).
/// - Output lines go to the package they name (`Unpacking P`, `Setting up P`) or the package
///   being worked on; lines before any package started wait for the first one.
/// - Reboot: a package that appears in Debian's `reboot-required.pkgs` while apt works on it
///   asked for one (rule 26); `rebootList` reads the list when asked.
struct APTRunState {
    private(set) var tracker: APTTransactionTracker
    private let indexOf: [String: Int]
    private var held: (index: Int, verdict: DriverVerdict)?
    private var finished: Set<Int> = []
    private var started: Set<Int> = []
    /// The most recent package to start that has not finished.
    private var active: Int?
    /// Output before any package started, bounded.
    private var waitingOutput: [(StandardStream, String)] = []
    private var rebootNames: Set<String>
    private(set) var stopRequested = false
    /// The packages told "stopping after this package", each once.
    private var toldStopping: Set<Int> = []
    private static let waitingOutputLimit = 500

    /// - Parameter rebootListBefore: the packages in `reboot-required.pkgs` before apt starts.
    init(plan: APTPlan, rebootListBefore: Set<String>) {
        tracker = APTTransactionTracker(job: "apt", plan: plan.changes, downloads: plan.downloads)
        indexOf = Dictionary(plan.changes.enumerated().map { ($1.package, $0) }, uniquingKeysWith: { first, _ in first })
        rebootNames = rebootListBefore
    }

    /// The indices of packages apt works on now (what a stop waits for).
    var inFlight: [Int] { tracker.inFlight.compactMap { indexOf[$0] }.filter { !finished.contains($0) } }

    /// Whether apt said anything of update `index`.
    func hasStarted(_ index: Int) -> Bool { started.contains(index) }

    /// Whether update `index` has its verdict (given or held).
    func hasFinished(_ index: Int) -> Bool { finished.contains(index) }

    // MARK: - Inputs

    /// One Status-Fd line. `rebootList` is read only when a package finishes.
    mutating func statusLine(_ line: String, rebootList: () -> Set<String>) -> [DriverReport] {
        var reports: [DriverReport] = []
        for message in tracker.consume(line) {
            switch message {
            case .started(let reference):
                guard let index = indexOf[reference.update] else { continue }
                releaseHeld(into: &reports)
                started.insert(index)
                active = index
                reports.append(.updateStarted(index: index))
                for (stream, text) in waitingOutput { reports.append(.update(index: index, .output(stream, text))) }
                waitingOutput.removeAll()
                if stopRequested { tellStopping(index, into: &reports) }
            case .progress(let progress):
                guard let index = indexOf[progress.reference.update] else { continue }
                // dpkg moved on to another package (downloads carry no overall figure): the
                // held success is final now.
                if progress.jobPercent != nil, let held, held.index != index { releaseHeld(into: &reports) }
                // dpkg works on this package now: lines that name none are its. A package that
                // was only downloaded when the stop came is the one apt finishes first.
                if progress.jobPercent != nil, !finished.contains(index) {
                    active = index
                    if stopRequested { tellStopping(index, into: &reports) }
                }
                if progress.percent != nil || progress.message != nil {
                    if let percent = progress.percent {
                        reports.append(.update(index: index, .progress(percent: percent, message: progress.message)))
                    } else if let message = progress.message {
                        reports.append(.update(index: index, .message(message)))
                    }
                }
                if let jobPercent = progress.jobPercent { reports.append(.jobProgress(percent: jobPercent)) }
            case .finished(let end):
                guard let index = indexOf[end.reference.update], !finished.contains(index) else { continue }
                releaseHeld(into: &reports)
                finished.insert(index)
                if active == index { active = nil }
                switch end.result {
                case .succeeded, .succeededWithErrors, .skipped:
                    let now = rebootList()
                    let asked = now.contains(end.reference.update) && !rebootNames.contains(end.reference.update)
                    rebootNames.formUnion(now)
                    held = (index, DriverVerdict(resultCode: .succeeded, rebootRequired: asked))
                case .failed, .aborted:
                    reports.append(.updateFinished(index: index, .failed(end.reason ?? "dpkg reported an error")))
                }
            case .hello, .plan, .output, .reboot, .stopping, .jobEnded:
                continue
            }
        }
        return reports
    }

    /// One line apt or dpkg printed.
    mutating func outputLine(_ line: String, on stream: StandardStream) -> [DriverReport] {
        // dpkg redraws "(Reading database ... 45%" with carriage returns: keep what a terminal
        // would show last, not every step.
        let line = line.contains("\r") ? String(line.split(separator: "\r", omittingEmptySubsequences: true).last ?? "") : line
        if let named = Self.packageNamed(in: line), let index = indexOf[named] ?? indexOf[Self.withoutArchiveNumber(named)],
           started.contains(index) {
            return [.update(index: index, .output(stream, line))]
        }
        if let index = active ?? held?.index {
            return [.update(index: index, .output(stream, line))]
        }
        if waitingOutput.count < Self.waitingOutputLimit { waitingOutput.append((stream, line)) }
        return []
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

    /// apt-get ended with `outcome`: the held success, marked when apt failed although no
    /// package did; then verdicts for packages apt did not report but dpkg shows done
    /// (`finalStates`: package → `ii 1.0`-like state and version), and for what it cut.
    mutating func aptEnded(_ outcome: UpdateRunOutcome, plan: APTPlan, finalStates: [String: APTPackageState]) -> [DriverReport] {
        var reports: [DriverReport] = []
        if case .exited(let status) = outcome, status != 0, let held, !tracker.hasFailures {
            reports.append(.update(index: held.index, .error("apt-get exited with status \(status)")))
        }
        releaseHeld(into: &reports)
        if stopRequested {
            // Only downloaded when apt stopped: dpkg never touched them.
            for index in plan.changes.indices where started.contains(index) && !finished.contains(index)
                && (tracker.phase(of: plan.changes[index].package).map { !$0.touchesThePackage } ?? true) {
                finished.insert(index)
                reports.append(.updateFinished(index: index, DriverVerdict(
                    resultCode: .aborted, reason: "not started: the job was aborted (it was only downloaded)", hResult: .callCancelled)))
            }
        }
        for (index, change) in plan.changes.enumerated() where !finished.contains(index) {
            let state = finalStates[change.package] ?? .notInstalled
            guard state.satisfies(change), !stopRequested || started.contains(index) else { continue }
            // dpkg's final state says the package was done although apt did not say so
            // (rule 23: the driver's word is checked where the system can tell).
            if !started.contains(index) { reports.append(.updateStarted(index: index)) }
            finished.insert(index)
            reports.append(.updateFinished(index: index, DriverVerdict(resultCode: .succeeded, reason: "dpkg shows it \(state.description)")))
        }
        return reports
    }

    /// Update `index` got its verdict elsewhere (the repair after a forced stop).
    mutating func markFinished(_ index: Int) -> Bool {
        if active == index { active = nil }
        return finished.insert(index).inserted
    }

    /// Takes the success held back for the last package that finished, which apt has not
    /// confirmed by ending: a repair after apt (cut by a forced stop in trigger processing, or
    /// stopped before them) gives that package its verdict instead.
    mutating func takeHeld() -> (index: Int, verdict: DriverVerdict)? {
        defer { held = nil }
        return held
    }

    private mutating func releaseHeld(into reports: inout [DriverReport]) {
        guard let held else { return }
        reports.append(.updateFinished(index: held.index, held.verdict))
        self.held = nil
    }

    /// Front-loaded: the status column is narrow.
    static let stoppingMessage = "stopping after this package (abort requested)"

    /// apt hands dpkg many archives at once under numbered names (`00-lab-base_1.0_all.deb`).
    static func withoutArchiveNumber(_ name: String) -> String {
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, name.dropFirst(digits.count).first == "-" else { return name }
        return String(name.dropFirst(digits.count + 1))
    }

    /// The package an apt or dpkg output line is about: `Unpacking P (…) …`, `Setting up P (…)`,
    /// `Preparing to unpack …/P_1.0_all.deb`, `Selecting previously unselected package P.`,
    /// `Removing P (…)`; `nil` for other lines.
    static func packageNamed(in line: String) -> String? {
        let prefixes = ["Unpacking ", "Setting up ", "Selecting previously unselected package ", "Removing ", "Purging configuration files for "]
        for prefix in prefixes where line.hasPrefix(prefix) {
            let word = line.dropFirst(prefix.count).prefix { $0 != " " && $0 != ":" }
            return String(word.hasSuffix(".") ? word.dropLast() : word)
        }
        if line.hasPrefix("Preparing to unpack "), let slash = line.lastIndex(of: "/") {
            return String(line[line.index(after: slash)...].prefix { $0 != "_" })
        }
        return nil
    }
}
