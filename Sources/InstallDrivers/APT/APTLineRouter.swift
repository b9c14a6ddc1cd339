import InstallEngine

/// Which package of the plan apt's and dpkg's words are about, by its position in the plan (the
/// update's index): apt's Status-Fd lines through `APTTransactionTracker`, dpkg's output by
/// the package it names, and, for a line that names none, the package dpkg's output is on.
///
/// Output and Status-Fd come on different pipes, so their order is not reliable under load:
/// dpkg's output's own markers (`Unpacking P`, `Setting up P`) say where it is, and the order
/// in which Status-Fd first spoke of each package (apt's order, which dpkg's output follows
/// too) says which packages the output has moved past (`hasPassed`). Pure: it says where a
/// line goes, `APTRunState` says what that means for the job.
struct APTLineRouter {
    /// apt's Status-Fd lines, read against the plan.
    private(set) var tracker: APTTransactionTracker
    private let indexOf: [String: Int]
    /// The most recent package Status-Fd put dpkg on that has not finished.
    private(set) var active: Int?
    /// The package dpkg's output last named as the one it works on.
    private(set) var outputPackage: Int?
    /// Every package dpkg's output has named as the one it works on.
    private var namedByOutput: Set<Int> = []
    /// The order in which Status-Fd first spoke of each package dpkg worked on.
    private var statusOrder: [Int: Int] = [:]

    init(plan: APTPlan) {
        tracker = APTTransactionTracker(plan: plan.changes, downloads: plan.downloads)
        indexOf = Dictionary(plan.changes.enumerated().map { ($1.package, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The events of one Status-Fd line, by plan position (`APTTransactionTracker.consume`).
    mutating func consume(_ line: String) -> [APTStatusEvent] {
        tracker.consume(line)
    }

    /// The plan position of `package`, also under the numbered name apt hands dpkg its archive
    /// by (`00-P`); `nil` for a package outside the plan.
    func index(of package: String) -> Int? {
        indexOf[package] ?? indexOf[DpkgOutputLine.withoutArchiveNumber(package)]
    }

    /// The packages apt works on now but those in `decided`, the one dpkg is on first: in a
    /// batch, dpkg may have begun others (unpacked, or deconfigured for an upgrade that breaks
    /// them) before it.
    func inFlight(excluding decided: Set<Int>) -> [Int] {
        let indices = tracker.inFlight.compactMap { indexOf[$0] }.filter { !decided.contains($0) }
        guard let current = outputPackage ?? active, indices.contains(current) else { return indices }
        return [current] + indices.filter { $0 != current }
    }

    /// Status-Fd spoke of `index` as a package dpkg works on: its place in apt's order.
    mutating func statusSpoke(of index: Int) {
        if statusOrder[index] == nil { statusOrder[index] = statusOrder.count }
    }

    /// Status-Fd put dpkg on `index` now.
    mutating func dpkgWorks(on index: Int) {
        active = index
    }

    /// `index` finished (by apt's word, or elsewhere): Status-Fd has dpkg on no package until
    /// the next.
    mutating func finished(_ index: Int) {
        if active == index { active = nil }
    }

    /// dpkg's output names `index` as the package it works on now: every earlier package's
    /// lines have come.
    mutating func outputWorks(on index: Int) {
        outputPackage = index
        namedByOutput.insert(index)
    }

    /// Whether dpkg's output, now on `current`, has moved past `index`: the output named it
    /// before, or apt worked on it before `current` (its lines, marked or not, came before).
    func hasPassed(_ index: Int, current: Int) -> Bool {
        index != current && (namedByOutput.contains(index) || order(of: index) < order(of: current))
    }

    /// Of `indices`, the one Status-Fd spoke of first; `nil` when there is none.
    func firstSpokenOf(_ indices: [Int]) -> Int? {
        indices.min { order(of: $0) < order(of: $1) }
    }

    private func order(of index: Int) -> Int {
        statusOrder[index] ?? Int.max
    }
}
