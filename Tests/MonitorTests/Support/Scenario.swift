import Foundation
import InstallEngine
import RestartScan
import TerminalUI

@testable import Monitor

/// A monitor fed with hand-made engine events at controlled times, for reducer and render
/// tests. Times advance only through `advance(_:)`, so frames are deterministic.
struct Scenario {
    static let epoch = Date(timeIntervalSince1970: 1_800_000_000)

    var state: MonitorState
    var now: Date
    private var nextJob = 1

    init(width: Int = 80, height: Int = 24, glyphs: MonitorGlyphs = .unicode, themeNames: [String] = ["Default", "Mono"]) {
        now = Scenario.epoch
        state = MonitorState(width: width, height: height, glyphs: glyphs, themeNames: themeNames, now: now)
    }

    // MARK: - Engine events

    @discardableResult
    mutating func send(_ kind: EngineEvent.Kind) -> [MonitorEffect] {
        state.handle(.engine(EngineEvent(time: now, kind: kind)))
    }

    /// Queues a job; returns its number.
    @discardableResult
    mutating func queue(_ name: String, _ titles: [String], operation: UpdateOperation = .install) -> Int {
        let id = nextJob
        nextJob += 1
        let updates = titles.enumerated().map { Update(id: "u\(id)-\($0.offset)", title: $0.element) }
        send(.jobQueued(JobDescriptor(id: id, name: name, operation: operation, updates: updates, stopOnFailure: false)))
        return id
    }

    mutating func startJob(_ job: Int) { send(.jobStarted(job: job)) }

    mutating func startUpdate(_ job: Int, _ index: Int) {
        send(.updateStarted(job: job, index: index, updateID: "u\(job)-\(index)"))
    }

    mutating func progress(_ job: Int, _ index: Int, _ percent: Double?, message: String? = nil) {
        let jobPercent = state.queue.job(job).map { job -> Double in
            let count = Double(max(1, job.updates.count))
            return 100 * (Double(index) + (percent ?? 0) / 100) / count
        } ?? 0
        send(.progress(job: job, index: index, updatePercent: percent, jobPercent: jobPercent, message: message))
    }

    mutating func output(_ job: Int, _ index: Int, _ line: String, stream: StandardStream = .stdout) {
        send(.output(job: job, index: index, stream: stream, line: line))
    }

    mutating func completeUpdate(
        _ job: Int, _ index: Int, _ code: OperationResultCode, reason: String? = nil, reboot: Bool = false,
        errors: [String] = []
    ) {
        let started = state.queue.job(job)?.updates[index].startedAt ?? now
        let result = UpdateInstallationResult(
            resultCode: code, hResult: code == .failed ? .installerFailure : .ok, rebootRequired: reboot,
            unmappedResultCode: code == .failed ? 1 : 0, reason: reason, reportedErrors: errors, startedAt: started, endedAt: now)
        send(.updateCompleted(job: job, index: index, updateID: "u\(job)-\(index)", result: result))
    }

    /// Completes the job with the results its updates have (never-started ones become aborted).
    mutating func completeJob(_ job: Int) {
        guard let state = state.queue.job(job) else { return }
        let results = state.updates.map { update in
            update.result.resultCode.isFinal ? update.result : UpdateInstallationResult(resultCode: .aborted, hResult: .callCancelled)
        }
        send(.jobCompleted(job: job, result: .combining(results, abortRequested: state.abortRequested)))
    }

    /// Runs a one-update job named `name` to success and completes it carrying `advice` (the
    /// restart scan of rule 32); returns its number.
    @discardableResult
    mutating func complete(_ name: String = "Upgrade", advice: RestartAdvice) -> Int {
        let job = queue(name, ["openssl"])
        startJob(job)
        startUpdate(job, 0)
        completeUpdate(job, 0, .succeeded)
        let results = state.queue.job(job)?.updates.map(\.result) ?? []
        var result = InstallationResult.combining(results, abortRequested: false)
        result.restartAdvice = advice
        send(.jobCompleted(job: job, result: result))
        return job
    }

    /// Runs every update of `job` to `codes[i]` (succeeded when missing), then completes it.
    mutating func run(_ job: Int, codes: [OperationResultCode] = [], reboot: Set<Int> = [], seconds: Double = 3) {
        startJob(job)
        let count = state.queue.job(job)?.updates.count ?? 0
        for index in 0..<count {
            startUpdate(job, index)
            progress(job, index, 50, message: "working")
            advance(seconds)
            completeUpdate(job, index, index < codes.count ? codes[index] : .succeeded,
                reason: index < codes.count && codes[index] == .failed ? "exited with status 1" : nil,
                reboot: reboot.contains(index))
        }
        completeJob(job)
    }

    // MARK: - Time and keys

    mutating func advance(_ seconds: Double) {
        now = now.addingTimeInterval(seconds)
        _ = state.handle(.tick(now))
    }

    @discardableResult
    mutating func press(_ keys: Key...) -> [MonitorEffect] {
        keys.flatMap { state.handle(.key($0)) }
    }

    @discardableResult
    mutating func type(_ text: String) -> [MonitorEffect] {
        text.flatMap { state.handle(.key(.character($0))) }
    }

    /// Engine commands among `effects` (without redraws).
    static func commands(_ effects: [MonitorEffect]) -> [MonitorEffect] {
        effects.filter { $0 != .redraw }
    }

    // MARK: - Rendering

    func render(theme: Theme = Themes.default) -> Buffer {
        MonitorRenderer.render(state, theme: theme)
    }

    func screen(theme: Theme = Themes.default) -> String {
        render(theme: theme).lines.joined(separator: "\n")
    }

    // MARK: - The layout of Documentation/MONITOR.md

    /// Security updates running (3 of 8 done, libc6 at 44 % with output), a queued kernel job,
    /// a succeeded tools job with a reboot, and a drivers job with one failure.
    static func product(width: Int = 80, height: Int = 24, glyphs: MonitorGlyphs = .unicode) -> Scenario {
        var scenario = Scenario(width: width, height: height, glyphs: glyphs)
        let tools = scenario.queue("Tools", ["jq 1.6", "htop 3.2.2"])
        let drivers = scenario.queue("Drivers", ["nvidia 535", "firmware-iwlwifi", "alsa 1.2", "r8169 quirk"])
        scenario.run(tools, reboot: [1], seconds: 4)
        scenario.run(drivers, codes: [.succeeded, .failed, .succeeded, .succeeded], seconds: 2)
        let security = scenario.queue("Security updates", [
            "OpenSSL 3.0.15", "zlib 1.2.13", "tzdata 2024b", "libc6 2.36-9", "curl 7.88", "sudo 1.9.13", "git 2.39.5", "vim 9.0",
        ])
        scenario.queue("Kernel 6.1.0-27", ["linux-image-6.1.0-27", "linux-headers-6.1.0-27"])
        scenario.startJob(security)
        for index in 0..<3 {
            scenario.startUpdate(security, index)
            scenario.advance(6)
            scenario.progress(security, index, 100)
            scenario.completeUpdate(security, index, .succeeded)
        }
        scenario.startUpdate(security, 3)
        scenario.output(security, 3, "Preparing to unpack .../libc6_2.36-9+deb12u9_amd64.deb ...")
        scenario.output(security, 3, "Unpacking libc6:amd64 (2.36-9+deb12u9) over (2.36-9+deb12u8) ...")
        for step in 1...4 {
            scenario.advance(1)
            scenario.progress(security, 3, Double(step) * 11, message: "Unpacking libc6")
        }
        scenario.advance(1)
        _ = scenario.state.handle(.key(.home))
        _ = scenario.state.handle(.key(.down))
        _ = scenario.state.handle(.key(.down))
        return scenario
    }
}

/// The built-in themes by id.
enum Themes {
    static let catalog = ThemeCatalog(userDirectory: nil)
    static func named(_ id: String) -> Theme { catalog.themes.first { $0.id == id }! }
    static let `default` = named("default")
    static let mono = named("mono")
}
