import InstallEngine
import Testing

@testable import InstallDrivers

/// apt's output and its Status-Fd lines come on different pipes, so under load either may run
/// ahead of the other. A real transaction (apt 2.6, `Immediate-Configure-All`,
/// `DPkg::StopOnError=false`, recorded in a private root: a failing postinst, a package that
/// depends on it, apt's retry of both at the end) is fed in many orders that keep each pipe's
/// own order: every line must reach the package it belongs to while that package is still
/// running, whatever the order.
@Suite("apt: output attributed by its own markers, whichever pipe runs ahead")
struct APTRunStateInterleavingTests {
    private static let names = ["a-broken", "a-dep", "a-lib", "a-foo", "a-last"]

    private let plan = APTPlan(
        job: PackageJob(request: .install(["a-foo", "a-broken", "a-dep", "a-last"])),
        environment: APTEnvironment(aptConfig: nil, administrativeDirectory: "/x", root: "/x", dpkgOptions: []),
        changes: Self.names.map { PackageChange(package: $0, action: .install, newVersion: "1.0") }, downloads: [])

    /// apt-get's output, each line with the package it belongs to.
    private static let output: [(String, String)] = [
        ("Reading package lists...", "a-broken"),
        ("Selecting previously unselected package a-broken.", "a-broken"),
        ("(Reading database ... 0 files and directories currently installed.)", "a-broken"),
        ("Preparing to unpack .../repo/./a-broken_1.0_all.deb ...", "a-broken"),
        ("Unpacking a-broken (1.0) ...", "a-broken"),
        ("Setting up a-broken (1.0) ...", "a-broken"),
        ("a-broken: cannot start a-broken.service: on purpose", "a-broken"),
        ("dpkg: error processing package a-broken (--configure):", "a-broken"),
        (" installed a-broken package post-installation script subprocess returned error exit status 1", "a-broken"),
        ("Errors were encountered while processing:", "a-broken"),
        (" a-broken", "a-broken"),
        ("Selecting previously unselected package a-dep.", "a-dep"),
        ("(Reading database ... 5 files and directories currently installed.)", "a-dep"),
        ("Preparing to unpack .../repo/./a-dep_1.0_all.deb ...", "a-dep"),
        ("Unpacking a-dep (1.0) ...", "a-dep"),
        ("dpkg: dependency problems prevent configuration of a-dep:", "a-dep"),
        (" a-dep depends on a-broken; however:", "a-dep"),
        ("  Package a-broken is not configured yet.", "a-dep"),
        ("dpkg: error processing package a-dep (--configure):", "a-dep"),
        (" dependency problems - leaving unconfigured", "a-dep"),
        ("Selecting previously unselected package a-lib.", "a-lib"),
        ("Preparing to unpack .../repo/./a-lib_1.0_all.deb ...", "a-lib"),
        ("Unpacking a-lib (1.0) ...", "a-lib"),
        ("Setting up a-lib (1.0) ...", "a-lib"),
        ("Selecting previously unselected package a-foo.", "a-foo"),
        ("Preparing to unpack .../repo/./a-foo_1.0_all.deb ...", "a-foo"),
        ("Unpacking a-foo (1.0) ...", "a-foo"),
        ("Setting up a-foo (1.0) ...", "a-foo"),
        ("Selecting previously unselected package a-last.", "a-last"),
        ("Preparing to unpack .../repo/./a-last_1.0_all.deb ...", "a-last"),
        ("Unpacking a-last (1.0) ...", "a-last"),
        ("Setting up a-last (1.0) ...", "a-last"),
        // apt's retry of what failed to configure: the second attempt is a-broken's again.
        ("Setting up a-broken (1.0) ...", "a-broken"),
        ("a-broken: cannot start a-broken.service: on purpose", "a-broken"),
        ("dpkg: error processing package a-broken (--configure):", "a-broken"),
        (" installed a-broken package post-installation script subprocess returned error exit status 1", "a-broken"),
        ("dpkg: dependency problems prevent configuration of a-dep:", "a-dep"),
        (" dependency problems - leaving unconfigured", "a-dep"),
    ]

    /// The same transaction's Status-Fd lines (without `dpkg-exec`).
    private static let status: [String] = [
        "pmstatus:a-broken:0.0000:Preparing a-broken (amd64)", "pmstatus:a-broken:4.7619:Unpacking a-broken (amd64)",
        "pmstatus:a-broken:9.5238:Installing a-broken (amd64)", "pmstatus:a-broken:9.5238:Preparing to configure a-broken (amd64)",
        "pmstatus:a-broken:14.2857:Configuring a-broken (amd64)",
        "pmerror:a-broken:14.2857:installed a-broken package post-installation script subprocess returned error exit status 1",
        "pmstatus:a-dep:14.2857:Preparing a-dep (amd64)", "pmstatus:a-dep:19.0476:Unpacking a-dep (amd64)",
        "pmstatus:a-dep:23.8095:Installing a-dep (amd64)", "pmerror:a-dep:23.8095:dependency problems - leaving unconfigured",
        "pmstatus:a-lib:23.8095:Preparing a-lib (amd64)", "pmstatus:a-lib:28.5714:Unpacking a-lib (amd64)",
        "pmstatus:a-lib:38.0952:Configuring a-lib (amd64)", "pmstatus:a-lib:42.8571:Installed a-lib (amd64)",
        "pmstatus:a-foo:42.8571:Preparing a-foo (amd64)", "pmstatus:a-foo:47.6190:Unpacking a-foo (amd64)",
        "pmstatus:a-foo:57.1429:Configuring a-foo (amd64)", "pmstatus:a-foo:61.9048:Installed a-foo (amd64)",
        "pmstatus:a-last:61.9048:Preparing a-last (amd64)", "pmstatus:a-last:66.6667:Unpacking a-last (amd64)",
        "pmstatus:a-last:76.1905:Configuring a-last (amd64)", "pmstatus:a-last:80.9524:Installed a-last (amd64)",
        "pmstatus:a-broken:80.9524:Preparing to configure a-broken (amd64)",
        "pmerror:a-broken:80.9524:installed a-broken package post-installation script subprocess returned error exit status 1",
        "pmerror:a-dep:80.9524:dependency problems - leaving unconfigured",
    ]

    /// One line of either pipe.
    private enum Line {
        case status(String)
        case output(Int)
    }

    /// What the engine would keep: output of an update it has started and not yet finished.
    private struct Engine {
        var running: Set<Int> = []
        var ended: Set<Int> = []
        /// Output line number → the update it was kept for.
        var kept: [Int: Int] = [:]
        /// Output line number → the update it was attributed to, kept or not.
        var attributed: [Int: Int] = [:]
        var verdicts: [Int: DriverVerdict] = [:]
        var startsOfUnknown = 0

        mutating func take(_ reports: [DriverReport], line: Int?) {
            for report in reports {
                switch report {
                case .updateStarted(let index):
                    if running.contains(index) || ended.contains(index) { startsOfUnknown += 1 }
                    running.insert(index)
                case .update(let index, .output(_, let text)):
                    // Preamble lines that waited are flushed with the start: match by text.
                    let number = line.flatMap { APTRunStateInterleavingTests.output[$0].0 == text ? $0 : nil }
                        ?? APTRunStateInterleavingTests.output.firstIndex { $0.0 == text } ?? -1
                    attributed[number] = index
                    if running.contains(index) { kept[number] = index }
                case .updateFinished(let index, let verdict):
                    running.remove(index)
                    ended.insert(index)
                    verdicts[index] = verdict
                default:
                    continue
                }
            }
        }
    }

    /// Feeds `lines` in order, then apt's exit 100.
    private func run(_ lines: [Line]) -> Engine {
        var state = APTRunState(plan: plan, rebootListBefore: [])
        var engine = Engine()
        for line in lines {
            switch line {
            case .status(let text): engine.take(state.statusLine(text, rebootList: { [] }), line: nil)
            case .output(let number): engine.take(state.outputLine(Self.output[number].0, on: .stdout), line: number)
            }
        }
        engine.take(state.aptEnded(.exited(100), plan: plan, finalStates: [:], rebootList: []), line: nil)
        return engine
    }

    private func index(_ name: String) -> Int { Self.names.firstIndex(of: name) ?? -1 }

    /// Every line attributed to its own package; every line of a package's first attempt kept
    /// (it came while the package ran); both failures and the successes given.
    private func check(_ engine: Engine, _ order: String) {
        for (number, line) in Self.output.enumerated() {
            #expect(engine.attributed[number] == index(line.1), "\(order): line \(number) \"\(line.0)\" went to \(engine.attributed[number].map { Self.names[$0] } ?? "nothing")")
        }
        let firstAttempt = 0..<32
        for number in firstAttempt {
            #expect(engine.kept[number] != nil, "\(order): line \(number) \"\(Self.output[number].0)\" came after its package's verdict")
        }
        #expect(engine.verdicts[index("a-broken")]?.resultCode == .failed, "\(order)")
        #expect(engine.verdicts[index("a-dep")]?.resultCode == .failed, "\(order)")
        for name in ["a-lib", "a-foo", "a-last"] { #expect(engine.verdicts[index(name)]?.resultCode == .succeeded, "\(order): \(name)") }
        #expect(engine.startsOfUnknown == 0, "\(order): an update started twice")
    }

    @Test("Status-Fd a whole transaction ahead of the output")
    func statusAhead() {
        check(run(Self.status.map(Line.status) + Self.output.indices.map(Line.output)), "Status-Fd first")
    }

    @Test("The output a whole transaction ahead of Status-Fd")
    func outputAhead() {
        check(run(Self.output.indices.map(Line.output) + Self.status.map(Line.status)), "output first")
    }

    @Test("Status-Fd's error before the failing script's own line (the CI flake's order)")
    func errorBeforeScriptLine() {
        // Up to "Setting up a-broken", then Status-Fd through a-dep's start, then the rest.
        let lines = (0...5).map(Line.output) + Self.status.prefix(7).map(Line.status)
            + (6..<Self.output.count).map(Line.output) + Self.status.dropFirst(7).map(Line.status)
        let engine = run(lines)
        check(engine, "pmerror before the script's line")
        #expect(engine.kept[6] == index("a-broken"))
    }

    @Test("Status-Fd behind or ahead of the output by every lag from a whole transaction to none", arguments: -40...40)
    func everyLag(lag: Int) {
        // Status-Fd line j is read as if it were output line j·(output/status) + lag: a
        // negative lag reads Status-Fd early, a positive one late; ties go either way.
        let scale = Double(Self.output.count) / Double(Self.status.count)
        for statusFirstOnTies in [true, false] {
            let keyed = Self.status.enumerated().map { (key: Double($0.offset) * scale + Double(lag), first: statusFirstOnTies, line: Line.status($0.element)) }
                + Self.output.indices.map { (key: Double($0), first: !statusFirstOnTies, line: Line.output($0)) }
            let lines = keyed.enumerated().sorted { a, b in
                a.element.key != b.element.key ? a.element.key < b.element.key
                    : a.element.first != b.element.first ? a.element.first : a.offset < b.offset
            }.map(\.element.line)
            check(run(lines), "lag \(lag), Status-Fd first on ties: \(statusFirstOnTies)")
        }
    }
}
