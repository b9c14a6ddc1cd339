#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
@testable import PatchPolicy
import Testing

/// The night as a value machine: waves, gates, the failure budget, the window closing, and a
/// restart from the stamp that patches no host twice.
@Suite("Policy: the night's machine")
struct NightMachineTests {
    /// A canary, then 2 hosts, then 3.
    static let waves = [
        Wave(kind: .canary, hosts: ["c1"]),
        Wave(kind: .percent(34), hosts: ["a1", "a2"]),
        Wave(kind: .rest, hosts: ["b1", "b2", "b3"]),
    ]

    static func started(_ actions: [NightAction]) -> [String] {
        actions.compactMap { if case .startHost(let host, _) = $0 { host } else { nil } }
    }

    @Test("A night that goes well: each host started after a stamp, each wave gated, notified, finished")
    func wholeNight() {
        var machine = NightMachine(waves: Self.waves, atOnce: 2, tolerated: 0)
        let first = machine.begin()
        #expect(first == [.writeStamp, .startHost("c1", wave: 0)])
        #expect(machine.hostEnded("c1", outcome: .confirmed) == [.writeStamp, .evaluateGate(wave: 0, confirmed: ["c1"])])
        let second = machine.gateEvaluated(wave: 0, passed: true)
        #expect(second == [.notify(.wavePassed(wave: 0)), .writeStamp, .startHost("a1", wave: 1), .writeStamp, .startHost("a2", wave: 1)])
        _ = machine.hostEnded("a1", outcome: .confirmed)
        _ = machine.hostEnded("a2", outcome: .confirmed)
        #expect(Self.started(machine.gateEvaluated(wave: 1, passed: true)) == ["b1", "b2"])
        #expect(Self.started(machine.hostEnded("b1", outcome: .confirmed)) == ["b3"])
        _ = machine.hostEnded("b2", outcome: .confirmed)
        _ = machine.hostEnded("b3", outcome: .confirmed)
        #expect(machine.gateEvaluated(wave: 2, passed: true) == [.writeStamp, .notify(.wavePassed(wave: 2)), .notify(.finished)])
        #expect(machine.phase == .finished)
    }

    @Test("The canary reverts: its gate fails, the night stops and no other host starts")
    func canaryGateFails() {
        var machine = NightMachine(waves: Self.waves, atOnce: 1, tolerated: 5)
        _ = machine.begin()
        let actions = machine.hostEnded("c1", outcome: .reverted(reason: "sshd -t failed after the job"))
        let reason = NightStopReason.gateFailed(wave: 0, reason: "c1 reverted: sshd -t failed after the job")
        #expect(actions == [.writeStamp, .notify(.stopped(reason))])
        #expect(machine.phase == .stopped(reason))
        #expect(machine.steps["a1"] == .pending && machine.steps["b3"] == .pending)
        #expect(machine.gateEvaluated(wave: 0, passed: true).isEmpty)
    }

    @Test("The gate's command fails: the night stops after the canary")
    func gateCommandFails() {
        var machine = NightMachine(waves: Self.waves, atOnce: 1, tolerated: 0)
        _ = machine.begin()
        _ = machine.hostEnded("c1", outcome: .confirmed)
        let actions = machine.gateEvaluated(wave: 0, passed: false, reason: "check-site exited 1")
        #expect(actions == [.writeStamp, .notify(.stopped(.gateFailed(wave: 0, reason: "check-site exited 1")))])
        #expect(Self.started(actions).isEmpty)
    }

    @Test("The window closes mid-wave: no new host starts, the running ones finish, then the night stops")
    func windowClosesMidWave() {
        var machine = NightMachine(waves: [Wave(kind: .rest, hosts: ["h1", "h2", "h3", "h4"])], atOnce: 2, tolerated: 0)
        #expect(Self.started(machine.begin()) == ["h1", "h2"])
        #expect(machine.windowClosed() == [.writeStamp])
        #expect(machine.phase == .draining(.windowClosed))
        #expect(machine.hostEnded("h1", outcome: .confirmed) == [.writeStamp])
        #expect(machine.hostEnded("h2", outcome: .confirmed) == [.writeStamp, .notify(.stopped(.windowClosed))])
        #expect(machine.steps["h3"] == .pending && machine.steps["h4"] == .pending)
    }

    @Test("The window closes while a wave's last hosts run: they finish, the wave is gated, and its passing gate finishes the last wave but starts no other")
    func windowClosesAtWaveEnd() {
        var machine = NightMachine(waves: [Wave(kind: .canary, hosts: ["c1"]), Wave(kind: .rest, hosts: ["h1", "h2"])], atOnce: 1, tolerated: 0)
        _ = machine.begin()
        #expect(machine.windowClosed() == [.writeStamp])
        #expect(machine.hostEnded("c1", outcome: .confirmed) == [.writeStamp, .evaluateGate(wave: 0, confirmed: ["c1"])])
        #expect(machine.gateEvaluated(wave: 0, passed: true) == [.notify(.wavePassed(wave: 0)), .writeStamp, .notify(.stopped(.windowClosed))])
        #expect(machine.steps["h1"] == .pending)

        var last = NightMachine(waves: [Wave(kind: .rest, hosts: ["h1"])], atOnce: 1, tolerated: 0)
        _ = last.begin()
        _ = last.windowClosed()
        _ = last.hostEnded("h1", outcome: .confirmed)
        #expect(last.gateEvaluated(wave: 0, passed: true) == [.writeStamp, .notify(.wavePassed(wave: 0)), .notify(.finished)])
    }

    @Test("The budget is exhausted: the failure one past it stops the night once the running host finishes")
    func budgetExhausted() {
        var machine = NightMachine(waves: [Wave(kind: .rest, hosts: ["h1", "h2", "h3", "h4", "h5"])], atOnce: 2, tolerated: 1)
        _ = machine.begin()
        // One failure is tolerated: the next host starts.
        #expect(Self.started(machine.hostEnded("h1", outcome: .failed(reason: "dpkg error"))) == ["h3"])
        #expect(machine.hostEnded("h2", outcome: .unreachable(reason: "ssh timed out")) == [.writeStamp])
        #expect(machine.phase == .draining(.budgetExhausted(failures: 2, tolerated: 1)))
        let last = machine.hostEnded("h3", outcome: .confirmed)
        #expect(last == [.writeStamp, .notify(.stopped(.budgetExhausted(failures: 2, tolerated: 1)))])
        #expect(machine.steps["h4"] == .pending && machine.steps["h5"] == .pending)
        #expect(NightStopReason.budgetExhausted(failures: 2, tolerated: 1).sentence
                == "2 hosts failed, reverted or became unreachable; the failure budget tolerates 1")
        #expect(NightStopReason.budgetExhausted(failures: 1, tolerated: 0).sentence
                == "1 host failed, reverted or became unreachable; the failure budget tolerates 0")
    }

    @Test("A host not back from its reboot stops the night though the budget tolerates more failures: no host starts after it, the running one finishes, the stop names it")
    func hostNotBackStopsTheNight() {
        var machine = NightMachine(waves: [Wave(kind: .rest, hosts: ["h1", "h2", "h3", "h4"])], atOnce: 2, tolerated: 3)
        _ = machine.begin()
        let actions = machine.hostEnded("h1", outcome: .notBack(reason: "did not come back within 10m"), reboot: "rebooted (new kernel 6.1.0-28), not back within 10m")
        #expect(actions == [.writeStamp], "no host starts in h1's place")
        #expect(machine.phase == .draining(.hostNotBack(host: "h1")))
        #expect(machine.steps["h1"] == .unreachable(reason: "did not come back within 10m"))
        #expect(machine.reboots == ["h1": "rebooted (new kernel 6.1.0-28), not back within 10m"])
        let last = machine.hostEnded("h2", outcome: .confirmed, reboot: "rebooted (new kernel 6.1.0-28), back after 42 s")
        #expect(last == [.writeStamp, .notify(.stopped(.hostNotBack(host: "h1")))])
        #expect(machine.phase == .stopped(.hostNotBack(host: "h1")))
        #expect(machine.steps["h3"] == .pending && machine.steps["h4"] == .pending)
        #expect(machine.reboots?["h2"] == "rebooted (new kernel 6.1.0-28), back after 42 s")
        #expect(NightStopReason.hostNotBack(host: "h1").sentence == "h1 did not come back after its reboot")
    }

    @Test("The only running host not back: the night stops at once and says so, whatever the budget; a canary's gate is never evaluated")
    func hostNotBackAlone() {
        var machine = NightMachine(waves: Self.waves, atOnce: 1, tolerated: 10)
        _ = machine.begin()
        let actions = machine.hostEnded("c1", outcome: .notBack(reason: "did not come back"))
        #expect(actions == [.writeStamp, .notify(.stopped(.hostNotBack(host: "c1")))])
        #expect(machine.phase == .stopped(.hostNotBack(host: "c1")))
        #expect(machine.reboots == nil, "no reboot note given, none kept")
        #expect(machine.gateEvaluated(wave: 0, passed: true).isEmpty)
    }

    @Test("A host not back while the night already drains for its budget: the stop names the host, which is what the operator must see to first")
    func hostNotBackWhileDraining() {
        var machine = NightMachine(waves: [Wave(kind: .rest, hosts: ["h1", "h2", "h3"])], atOnce: 3, tolerated: 0)
        _ = machine.begin()
        #expect(machine.hostEnded("h1", outcome: .failed(reason: "dpkg error")) == [.writeStamp])
        #expect(machine.phase == .draining(.budgetExhausted(failures: 1, tolerated: 0)))
        #expect(machine.hostEnded("h2", outcome: .notBack(reason: "did not come back")) == [.writeStamp])
        #expect(machine.phase == .draining(.hostNotBack(host: "h2")))
        #expect(machine.hostEnded("h3", outcome: .confirmed) == [.writeStamp, .notify(.stopped(.hostNotBack(host: "h2")))])
    }

    @Test("Reboot notes travel in the stamp; a stamp written before reboots existed (no `reboots` key) still reads")
    func rebootNotesInTheStamp() throws {
        var machine = NightMachine(waves: [Wave(kind: .rest, hosts: ["h1", "h2"])], atOnce: 1, tolerated: 0)
        let window = WindowOccurrence(start: 1, end: 2, window: 0)
        let before = try NightStamp(policy: "p.yaml", window: window, machine: machine).encoded()
        #expect(!String(decoding: before, as: UTF8.self).contains("reboots"))
        #expect(try NightStamp.decoded(from: before).machine == machine)
        _ = machine.begin()
        _ = machine.hostEnded("h1", outcome: .confirmed, reboot: "rebooted (/run/reboot-required), back after 3 s")
        let stamp = NightStamp(policy: "p.yaml", window: window, machine: machine)
        #expect(try NightStamp.decoded(from: stamp.encoded()) == stamp)
        let summary = NightSummary(stamp: stamp)
        #expect(summary.hosts.map(\.reboot) == ["rebooted (/run/reboot-required), back after 3 s", nil])
        #expect(summary.json().contains(#""reboot":"rebooted (\/run\/reboot-required), back after 3 s""#)
                || summary.json().contains(#""reboot":"rebooted (/run/reboot-required), back after 3 s""#), "\(summary.json())")
    }

    @Test("A wave whose hosts all failed within the budget proves nothing: its gate fails")
    func nothingConfirmed() {
        var machine = NightMachine(waves: Self.waves, atOnce: 1, tolerated: 3)
        _ = machine.begin()
        let actions = machine.hostEnded("c1", outcome: .failed(reason: "no space left"))
        #expect(actions == [.writeStamp, .notify(.stopped(.gateFailed(wave: 0, reason: "no host of the wave was confirmed")))])
    }

    @Test("A crash after the stamp: the restarted machine recovers the running hosts, starts only pending ones, and no host twice")
    func resumeFromStamp() throws {
        let folder = try PolicyFolder()
        defer { folder.remove() }
        let stampFile = StampFile(path: folder.file("night.json"))
        let window = WindowOccurrence(start: 1000, end: 9000, window: 0)
        var machine = NightMachine(waves: Self.waves, atOnce: 2, tolerated: 0)
        var startedBeforeCrash: [String] = []
        // The runner writes each stamp before the step it records, as the actions say.
        func perform(_ actions: [NightAction], on machine: NightMachine, started: inout [String]) throws {
            for action in actions {
                if action == .writeStamp { try stampFile.write(NightStamp(policy: "night.yaml", window: window, machine: machine)) }
                if case .startHost(let host, _) = action { started.append(host) }
            }
        }
        try perform(machine.begin(), on: machine, started: &startedBeforeCrash)
        try perform(machine.hostEnded("c1", outcome: .confirmed), on: machine, started: &startedBeforeCrash)
        try perform(machine.gateEvaluated(wave: 0, passed: true), on: machine, started: &startedBeforeCrash)
        try perform(machine.hostEnded("a1", outcome: .confirmed), on: machine, started: &startedBeforeCrash)
        #expect(startedBeforeCrash == ["c1", "a1", "a2"])
        // The process dies here, a2 running. A new one reads the stamp.
        let stamp = try #require(try stampFile.read())
        guard case .resume(var resumed) = NightResumption.decide(stamp: stamp, policy: "night.yaml", window: window) else {
            Issue.record("the night was not resumed")
            return
        }
        var startedAfter: [String] = []
        let actions = resumed.resume()
        #expect(actions.first == .recoverHost("a2", wave: 1))
        try perform(actions, on: resumed, started: &startedAfter)
        try perform(resumed.hostEnded("a2", outcome: .confirmed), on: resumed, started: &startedAfter)
        try perform(resumed.gateEvaluated(wave: 1, passed: true), on: resumed, started: &startedAfter)
        for host in ["b1", "b2", "b3"] { try perform(resumed.hostEnded(host, outcome: .confirmed), on: resumed, started: &startedAfter) }
        try perform(resumed.gateEvaluated(wave: 2, passed: true), on: resumed, started: &startedAfter)
        #expect(startedAfter == ["b1", "b2", "b3"])
        #expect(Set(startedBeforeCrash).isDisjoint(with: startedAfter))
        #expect(resumed.phase == .finished)
        // Started again in the same window after the night finished: nothing runs.
        let finished = try #require(try stampFile.read())
        #expect(NightResumption.decide(stamp: finished, policy: "night.yaml", window: window) == .over(.finished))
        // The next window's night is a new one.
        #expect(NightResumption.decide(stamp: finished, policy: "night.yaml", window: WindowOccurrence(start: 90_000, end: 99_000, window: 0)) == .fresh)
        // Another policy's night in this window: nothing starts, it might patch the same hosts.
        #expect(NightResumption.decide(stamp: finished, policy: "other.yaml", window: window) == .foreign(policy: "night.yaml"))
        #expect(NightResumption.decide(stamp: nil, policy: "night.yaml", window: window) == .fresh)
    }

    @Test("The stamp file is replaced whole; a missing one is no stamp, a torn one an error")
    func stampFile() throws {
        let folder = try PolicyFolder()
        defer { folder.remove() }
        let file = StampFile(path: folder.file("night.json"))
        #expect(try file.read() == nil)
        let stamp = NightStamp(policy: "p.yaml", window: WindowOccurrence(start: 1, end: 2, window: 0),
                               machine: NightMachine(waves: Self.waves, atOnce: 1, tolerated: 0))
        try file.write(stamp)
        #expect(try file.read() == stamp)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["night.json"])
        try folder.write("night.json", "{\"version\": 1, \"pol")
        #expect(throws: StampFile.Failure.self) { try file.read() }
    }
}
