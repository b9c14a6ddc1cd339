// JSONSerialization, to read the keys as a notify script would.
import Foundation
@testable import PatchPolicy
import Testing

/// What a night tells outside itself: the summary `notify` reads and `--status --json` prints,
/// where its stamp lives, and when a stamp's night was missed.
@Suite("Policy: the night's summary, stamp location and missed nights")
struct NightSummaryTests {
    static let window = WindowOccurrence(start: 1_780_365_600, end: 1_780_376_400, window: 0)

    /// h1 reverted in the canary wave, so the night stopped; h2 never started.
    static func stoppedStamp() -> NightStamp {
        var machine = NightMachine(waves: [Wave(kind: .canary, hosts: ["h1"]), Wave(kind: .rest, hosts: ["h2"])], atOnce: 1, tolerated: 1)
        _ = machine.begin()
        _ = machine.hostEnded("h1", outcome: .reverted(reason: "check regressed"))
        return NightStamp(policy: "/etc/installtop/policies/night.yaml", window: window, machine: machine)
    }

    @Test("A stopped night's summary: its event, window in UTC, phase, each host's step with why, and why it stopped; no wave once over")
    func stoppedSummary() throws {
        let summary = NightSummary(stamp: Self.stoppedStamp(), event: "stopped")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.json().utf8)) as? [String: Any])
        #expect(object["event"] as? String == "stopped")
        #expect(object["policy"] as? String == "/etc/installtop/policies/night.yaml")
        #expect(object["window_start"] as? String == "2026-06-02T02:00:00Z")
        #expect(object["window_end"] as? String == "2026-06-02T05:00:00Z")
        #expect(object["phase"] as? String == "stopped")
        #expect(object["wave"] == nil)
        #expect(object["waves"] as? Int == 2)
        #expect(object["stopped"] as? String == "wave 1 did not pass its gate: h1 reverted: check regressed")
        let hosts = try #require(object["hosts"] as? [[String: Any]])
        #expect(hosts.map { $0["host"] as? String } == ["h1", "h2"])
        #expect(hosts.map { $0["step"] as? String } == ["reverted", "pending"])
        #expect(hosts.map { $0["wave"] as? Int } == [1, 2])
        #expect(hosts[0]["reason"] as? String == "check regressed" && hosts[1]["reason"] == nil)
    }

    @Test("A status summary of a night under way has no event and names the wave being patched, from 1")
    func runningSummary() {
        var machine = NightMachine(waves: [Wave(kind: .rest, hosts: ["h1", "h2"])], atOnce: 1, tolerated: 0)
        _ = machine.begin()
        let summary = NightSummary(stamp: NightStamp(policy: "/p.yaml", window: Self.window, machine: machine))
        #expect(summary.event == nil && summary.phase == "patching" && summary.wave == 1)
        #expect(summary.hosts.map(\.step) == ["running", "pending"])
        #expect(!summary.json().contains("\"event\""))
    }

    @Test("Stamps: root's in /var/lib/installtop/nights, others' under XDG_STATE_HOME or ~/.local/state; one per policy path, named after the file")
    func stampLocation() {
        #expect(NightStampLocation.defaultFolder(euid: 0, environment: ["XDG_STATE_HOME": "/x"]) == "/var/lib/installtop/nights")
        #expect(NightStampLocation.defaultFolder(euid: 1000, environment: ["XDG_STATE_HOME": "/x", "HOME": "/home/a"]) == "/x/installtop/nights")
        #expect(NightStampLocation.defaultFolder(euid: 1000, environment: ["HOME": "/home/a"]) == "/home/a/.local/state/installtop/nights")
        let one = NightStampLocation.stamp(policy: "/etc/p/night.yaml", folder: "/s")
        #expect(one == NightStampLocation.stamp(policy: "/etc/p/night.yaml", folder: "/s"))
        #expect(one.hasPrefix("/s/night-") && one.hasSuffix(".json") && one.count == "/s/night-".count + 16 + ".json".count, "\(one)")
        #expect(one != NightStampLocation.stamp(policy: "/etc/q/night.yaml", folder: "/s"))
    }

    @Test("A night not over when its window closed is missed once another opening is current; a finished one, or one still in its window, is not")
    func missedNights() {
        let stopped = Self.stoppedStamp()
        var running = NightMachine(waves: [Wave(kind: .rest, hosts: ["h1"])], atOnce: 1, tolerated: 0)
        _ = running.begin()
        let underWay = NightStamp(policy: "/p.yaml", window: Self.window, machine: running)
        let next = WindowOccurrence(start: Self.window.start + 86_400, end: Self.window.end + 86_400, window: 0)
        #expect(underWay.isMissed(at: Self.window.end, current: next))
        #expect(underWay.isMissed(at: Self.window.end + 100, current: nil))
        #expect(!underWay.isMissed(at: Self.window.end - 1, current: Self.window))
        #expect(!stopped.isMissed(at: Self.window.end, current: next))
    }
}
