import PatchPolicy
import Testing

/// What `patch --check` prints for a policy, on a clock the test sets.
@Suite("Policy: the plan --check prints")
struct PolicyPlanTextTests {
    static func plan(at now: Int) throws -> [String] {
        let policy = try PolicyLoaderTests.load(PolicyLoaderTests.good).get()
        return PolicyPlanText.lines(of: policy, now: now, localTime: { "local \($0)" })
    }

    @Test("Before a window: the next one in the policy's zone with its offset (summer time), then in local time; the waves, gate and budget")
    func nextWindow() throws {
        // Monday 2026-06-01 12:00 UTC: the next window is the daily one at 23:30 CEST.
        let lines = try Self.plan(at: TestZones.utcInstant(2026, 6, 1, 12))
        let start = TestZones.utcInstant(2026, 6, 1, 21, 30)
        #expect(lines.contains("next window: monday 2026-06-01 23:30 (UTC+02:00) to 2026-06-02 01:00 (UTC+02:00) Europe/Berlin"), "\(lines)")
        #expect(lines.contains("  in local time: local \(start) to local \(start + 5400)"), "\(lines)")
        #expect(lines.contains("wave 1 (canary, 1 host): web1"))
        #expect(lines.contains("wave 2 (34%, 4 hosts): web2, web3, web4, web5"))
        #expect(lines.contains("wave 3 (the rest, 5 hosts): web6, db1, db2, db3, db4"))
        #expect(lines.contains("at once: 2 hosts of a wave"))
        #expect(lines.contains("gate: each host of a wave armed with --confirm 15m; none reverted and at least one confirmed, then `./check-site --all` exits 0"))
        #expect(lines.contains("failure budget: 2 hosts (2 of 10 hosts may fail, revert or be unreachable; one more stops the night)"))
        #expect(lines.contains("age: an update is taken once 7d old, a security update once 1d old"))
        #expect(lines.contains("blackouts: 2026-12-24, 2026-12-28..2027-01-01"))
    }

    @Test("Inside a window: the one open now, in winter time")
    func openWindow() throws {
        // Tuesday 2026-12-01 01:30 UTC is 02:30 CET, inside the Tuesday window.
        let lines = try Self.plan(at: TestZones.utcInstant(2026, 12, 1, 1, 30))
        #expect(lines.contains("window (open now): tuesday 2026-12-01 02:00 (UTC+01:00) to 2026-12-01 05:00 (UTC+01:00) Europe/Berlin"), "\(lines)")
    }

    @Test("Durations as a policy writes them")
    func durations() {
        #expect(PolicyPlanText.durationText(0) == "0s")
        #expect(PolicyPlanText.durationText(900) == "15m")
        #expect(PolicyPlanText.durationText(129_600) == "1d12h")
    }
}
