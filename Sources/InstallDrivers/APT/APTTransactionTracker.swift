import InstallEngine

/// Follows one apt transaction through its `APT::Status-Fd` lines and says, as `APTStatusEvent`s
/// by position in the plan, what happens to each package of it: its phase (never back) and
/// percent, apt's overall figure for the job, notes, errors, and its end on its
/// `Installed`/`Removed` line.
///
/// Pure: feed it lines with `consume(_:)`; what it cannot tell from apt's words (a package apt
/// never reached, dpkg's final state) is for the driver to settle when apt exits (rule 23).
public struct APTTransactionTracker: Sendable {
    /// The plan's package names, by position.
    private let packages: [String]
    /// Each name's position in the plan (its first, should it be named twice). The one hash of
    /// a name per line: the state below is kept by position, in arrays.
    private let positions: [String: Int]
    /// For line N of `--print-uris` (`dlstatus` item N), the position of its package in the
    /// plan; `nil` for a file of a package outside the plan.
    private let downloadPositions: [Int?]
    /// The packages to purge, whose `Completely removed` line reads "purged".
    private let purged: [Bool]
    private var phases: [APTPackagePhase?]
    private var failed: [Bool]
    /// How many files, from the first, have been marked downloaded: a `dlstatus:N` only has to
    /// mark files from here to N-1 (marking one again changes nothing, phases never go back),
    /// so a transaction of n files costs O(n), not O(n²).
    private var downloadsMarked = 0
    /// The position of the package dpkg works on now, which a `pmconffile` line is about.
    private var currentPosition: Int?
    /// apt's overall percent, 0…100, which never goes down on the job's bar.
    public var jobPercent: Double { overallPercent.value }
    /// `jobPercent`, raised by each of dpkg's lines (`JobPercent`: never lower).
    private var overallPercent = JobPercent.zero
    /// Lines that looked like apt's but could not be read, or named a package outside the plan.
    private(set) public var ignoredLines = 0

    public init(plan: [PackageChange], downloads: [APTDownload]) {
        packages = plan.map(\.package)
        let positions = Dictionary(plan.enumerated().map { ($1.package, $0) }, uniquingKeysWith: { first, _ in first })
        self.positions = positions
        downloadPositions = downloads.map { positions[$0.package] }
        let purgedNames = Set(plan.filter { $0.action == .purge }.map(\.package))
        purged = packages.map(purgedNames.contains)
        phases = Array(repeating: nil, count: plan.count)
        failed = Array(repeating: false, count: plan.count)
    }

    /// The package dpkg works on now, which a `pmconffile` line is about.
    public var current: String? { currentPosition.map { packages[$0] } }

    /// The phase a package has reached; `nil` before apt mentioned it.
    public func phase(of package: String) -> APTPackagePhase? { positions[package].flatMap { phases[$0] } }

    /// The name of the package at `position` in the plan.
    func package(at position: Int) -> String { packages[position] }

    /// The phase the package at `position` in the plan has reached; `nil` before apt mentioned it.
    func phase(at position: Int) -> APTPackagePhase? { phases[position] }

    /// Whether apt reported an error for any package.
    public var hasFailures: Bool { failed.contains(true) }

    /// Whether apt reported an error for `package`.
    public func hasFailed(_ package: String) -> Bool { positions[package].map { failed[$0] } ?? false }

    /// The packages that have started and neither finished nor failed: what a stop waits for.
    public var inFlight: [String] {
        phases.indices.filter { position in
            guard let phase = phases[position] else { return false }
            return !phase.isFinal && !failed[position] && phase.touchesThePackage
        }.map { packages[$0] }.sorted()
    }

    /// What one Status-Fd line says, in order (nothing for lines about nothing in the plan).
    public mutating func consume(_ line: String) -> [APTStatusEvent] {
        // The engine's splitter, so a line means the same to the tracker as to the channel.
        guard let (kind, subject, overall, text) = APTStatusLine.fields(of: line), overall <= 100 else {
            ignoredLines += 1
            return []
        }
        switch kind {
        case "dlstatus":
            return downloadStatus(item: Int(subject), text: text)
        case "pmstatus":
            return packageStatus(Self.packageName(subject), overall: overall, text: text)
        case "pmerror":
            return packageError(Self.packageName(subject), overall: overall, text: text)
        case "pmconffile":
            guard let currentPosition else { return [] }
            return [.note(position: currentPosition, "configuration file \(subject) kept (\(text))")]
        default:
            ignoredLines += 1
            return []
        }
    }

    // MARK: - Lines

    /// `dlstatus:N:…`: file N is being fetched, so every earlier file is done.
    private mutating func downloadStatus(item: Int?, text: String) -> [APTStatusEvent] {
        guard let item, item >= 1, item <= downloadPositions.count else {
            ignoredLines += 1
            return []
        }
        var events: [APTStatusEvent] = []
        // Files before `downloadsMarked` were advanced to `downloaded` already: doing it again
        // gives no event, as every later phase has a higher percent.
        for case let position? in downloadPositions[downloadsMarked..<max(downloadsMarked, item - 1)] {
            advance(position, to: .downloaded, overall: nil, into: &events)
        }
        downloadsMarked = max(downloadsMarked, item - 1)
        if let fetching = downloadPositions[item - 1] { advance(fetching, to: .downloading, overall: nil, into: &events) }
        return events
    }

    private mutating func packageStatus(_ package: String, overall: Double, text: String) -> [APTStatusEvent] {
        guard let position = positions[package], !failed[position], let phase = APTPackagePhase(statusText: text) else {
            // `pmstatus:dpkg-exec:…` and the like are not packages (Documentation/PACKAGE-FACTS.md); a failed
            // package keeps its result whatever apt says of it later.
            return []
        }
        currentPosition = position
        var events: [APTStatusEvent] = []
        advance(position, to: phase, overall: overall, into: &events)
        if phase.isFinal {
            currentPosition = nil
            events.append(.ended(position: position, failure: nil))
        }
        return events
    }

    private mutating func packageError(_ package: String, overall: Double, text: String) -> [APTStatusEvent] {
        guard let position = positions[package], !failed[position] else {
            ignoredLines += 1
            return []
        }
        // A package apt fails before any phase of it (a dependant left unconfigured) was begun.
        if phases[position] == nil { phases[position] = .preparing }
        failed[position] = true
        if currentPosition == position { currentPosition = nil }
        overallPercent.advance(to: overall)
        return [.ended(position: position, failure: text)]
    }

    /// Moves the package at `position` forward to `phase` (never back).
    private mutating func advance(_ position: Int, to phase: APTPackagePhase, overall: Double?, into events: inout [APTStatusEvent]) {
        guard !failed[position] else { return }
        if let previous = phases[position] {
            guard phase.percent > previous.percent || (phase.percent == previous.percent && phase != previous) else { return }
        }
        phases[position] = phase
        if let overall { overallPercent.advance(to: overall) }
        events.append(.reached(position: position, phase: phase,
                                 word: phase == .removed && purged[position] ? APTPackagePhase.doneWord(for: .purge) : phase.word,
                                 jobPercent: overall == nil ? nil : jobPercent))
    }

    /// apt's `pmerror` names packages with their architecture (`libc6:amd64`), `pmstatus` without;
    /// an error while dpkg unpacks names the archive (`/var/cache/apt/archives/lab-fail_2.0_all.deb`),
    /// whose file name begins with the package's (after the `01-` of the links apt makes in a
    /// `apt-dpkg-install-*` folder for a long batch).
    static func packageName(_ subject: String) -> String {
        if subject.hasSuffix(".deb"), let slash = subject.utf8.lastIndex(of: UInt8(ascii: "/")) {
            var file = subject[subject.utf8.index(after: slash)...]
            if subject[..<slash].split(separator: "/").last?.hasPrefix("apt-dpkg-install-") == true,
               let dash = file.firstIndex(of: "-"), file[..<dash].allSatisfy(\.isNumber) {
                file = file[file.index(after: dash)...]
            }
            return String(file.prefix { $0 != "_" })
        }
        // Most subjects have no architecture: nothing to build for them. Searched in the UTF-8
        // bytes: a search by Character segments the text into graphemes first (a quarter of
        // the tracker's time), and `contains(":")` resolves to Foundation's substring search.
        guard let colon = subject.utf8.firstIndex(of: UInt8(ascii: ":")) else { return subject }
        return String(subject[..<colon])
    }
}
