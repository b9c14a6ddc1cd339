import InstallEngine

/// Follows one apt transaction through its `APT::Status-Fd` lines and says, in driver protocol
/// messages, what happens to each package of the plan: started, its phase and percent, apt's
/// overall figure for the job, messages, errors, and success on its `Installed`/`Removed` line.
///
/// Pure: feed it lines with `consume(_:)`; what it cannot tell from apt's words (a package apt
/// never reached, dpkg's final state) is for the driver to settle when apt exits (rule 23).
public struct APTTransactionTracker: Sendable {
    /// The job key the messages carry.
    public let job: String
    /// Line N of `--print-uris`, for `dlstatus` item N.
    private let downloads: [APTDownload]
    private let planned: Set<String>
    /// The packages to purge, whose `Completely removed` line reads "purged".
    private let purged: Set<String>
    private var phases: [String: APTPackagePhase] = [:]
    private var failed: Set<String> = []
    /// How many files, from the first, have been marked downloaded: a `dlstatus:N` only has to
    /// mark files from here to N-1 (marking one again changes nothing, phases never go back),
    /// so a transaction of n files costs O(n), not O(n²).
    private var downloadsMarked = 0
    /// The package dpkg works on now, which a `pmconffile` line is about.
    public private(set) var current: String?
    /// apt's overall percent, which never goes down on the job's bar.
    private(set) public var jobPercent: Double = 0
    /// Lines that looked like apt's but could not be read, or named a package outside the plan.
    private(set) public var ignoredLines = 0

    public init(job: String, plan: [PackageChange], downloads: [APTDownload]) {
        self.job = job
        self.downloads = downloads
        planned = Set(plan.map(\.package))
        purged = Set(plan.filter { $0.action == .purge }.map(\.package))
    }

    /// The phase a package has reached; `nil` before apt mentioned it.
    public func phase(of package: String) -> APTPackagePhase? { phases[package] }

    /// Whether apt reported an error for any package.
    public var hasFailures: Bool { !failed.isEmpty }

    /// Whether apt reported an error for `package`.
    public func hasFailed(_ package: String) -> Bool { failed.contains(package) }

    /// The packages that have started and neither finished nor failed: what a stop waits for.
    public var inFlight: [String] {
        phases.filter { !$0.value.isFinal && !failed.contains($0.key) && $0.value != .downloading && $0.value != .downloaded }
            .map(\.key).sorted()
    }

    /// The messages one Status-Fd line means (none for lines about nothing in the plan).
    public mutating func consume(_ line: String) -> [DriverMessage] {
        // The engine's splitter, so a line means the same to the tracker as to the channel.
        guard let (kind, subject, overall, text) = APTStatusLine.fields(of: line), overall <= 100 else {
            ignoredLines += 1
            return []
        }
        switch kind {
        case "dlstatus":
            return downloadStatus(item: Int(subject), text: text)
        case "pmstatus":
            return packageStatus(packageName(subject), overall: overall, text: text)
        case "pmerror":
            return packageError(packageName(subject), overall: overall, text: text)
        case "pmconffile":
            guard let current else { return [] }
            return [.progress(DriverProgress(reference: reference(current), message: "configuration file \(subject) kept (\(text))"))]
        default:
            ignoredLines += 1
            return []
        }
    }

    // MARK: - Lines

    /// `dlstatus:N:…`: file N is being fetched, so every earlier file is done.
    private mutating func downloadStatus(item: Int?, text: String) -> [DriverMessage] {
        guard let item, item >= 1, item <= downloads.count else {
            ignoredLines += 1
            return []
        }
        var messages: [DriverMessage] = []
        // Files before `downloadsMarked` were advanced to `downloaded` already: doing it again
        // gives no message, as every later phase has a higher percent.
        for download in downloads[downloadsMarked..<max(downloadsMarked, item - 1)] where planned.contains(download.package) {
            messages += advance(download.package, to: .downloaded, overall: nil)
        }
        downloadsMarked = max(downloadsMarked, item - 1)
        let fetching = downloads[item - 1]
        if planned.contains(fetching.package) { messages += advance(fetching.package, to: .downloading, overall: nil) }
        return messages
    }

    private mutating func packageStatus(_ package: String, overall: Double, text: String) -> [DriverMessage] {
        guard planned.contains(package), !failed.contains(package), let phase = APTPackagePhase(statusText: text) else {
            // `pmstatus:dpkg-exec:…` and the like are not packages (PACKAGES.md); a failed
            // package keeps its result whatever apt says of it later.
            return []
        }
        current = package
        var messages = advance(package, to: phase, overall: overall)
        if phase.isFinal {
            current = nil
            messages.append(.finished(DriverFinished(reference: reference(package), result: .succeeded)))
        }
        return messages
    }

    private mutating func packageError(_ package: String, overall: Double, text: String) -> [DriverMessage] {
        guard planned.contains(package), !failed.contains(package) else {
            ignoredLines += 1
            return []
        }
        var messages: [DriverMessage] = []
        if phases[package] == nil {
            phases[package] = .preparing
            messages.append(.started(reference(package)))
        }
        failed.insert(package)
        if current == package { current = nil }
        raiseJobPercent(overall)
        messages.append(.finished(DriverFinished(reference: reference(package), result: .failed, reason: text)))
        return messages
    }

    /// Moves `package` forward to `phase` (never back), starting it first if needed.
    private mutating func advance(_ package: String, to phase: APTPackagePhase, overall: Double?) -> [DriverMessage] {
        guard !failed.contains(package) else { return [] }
        var messages: [DriverMessage] = []
        if let previous = phases[package] {
            guard phase.percent > previous.percent || (phase.percent == previous.percent && phase != previous) else { return [] }
        } else {
            messages.append(.started(reference(package)))
        }
        phases[package] = phase
        if let overall { raiseJobPercent(overall) }
        messages.append(.progress(DriverProgress(
            reference: reference(package), percent: phase.percent,
            message: phase == .removed && purged.contains(package) ? APTPackagePhase.doneWord(for: .purge) : phase.word, jobPercent: overall == nil ? nil : jobPercent)))
        return messages
    }

    private mutating func raiseJobPercent(_ overall: Double) {
        jobPercent = max(jobPercent, overall)
    }

    private func reference(_ package: String) -> DriverUpdateReference {
        DriverUpdateReference(job: job, update: package)
    }

    /// apt's `pmerror` names packages with their architecture (`libc6:amd64`), `pmstatus` without.
    private func packageName(_ subject: String) -> String {
        // Most subjects have no architecture: nothing to build for them. Searched in the UTF-8
        // bytes: a search by Character segments the text into graphemes first (a quarter of
        // the tracker's time), and `contains(":")` resolves to Foundation's substring search.
        guard let colon = subject.utf8.firstIndex(of: UInt8(ascii: ":")) else { return subject }
        return String(subject[..<colon])
    }
}
