import PatchPolicy
import Testing

/// Splitting hosts into waves: the same hosts give the same waves.
@Suite("Policy: waves")
struct WavePlanTests {
    static let hosts = (1...10).map { "web\($0)" }

    @Test("A canary and 34% of 10 hosts: 1, then 4 (3.4 rounded up), then the other 5, in inventory order")
    func canaryPercentRest() {
        let waves = WavePlan(canaries: ["web7"], percent: 34).waves(of: Self.hosts)
        #expect(waves.map(\.hosts) == [["web7"], ["web1", "web2", "web3", "web4"], ["web5", "web6", "web8", "web9", "web10"]])
        #expect(waves.map(\.label) == ["canary", "34%", "the rest"])
        #expect(WavePlan(canaries: ["web7"], percent: 34).waves(of: Self.hosts) == waves)
    }

    @Test("Empty waves are left out: no canary, 100%, or a percentage larger than what is left")
    func emptyWaves() {
        #expect(WavePlan(canaries: [], percent: nil).waves(of: Self.hosts).map(\.hosts) == [Self.hosts])
        #expect(WavePlan(canaries: ["web1"], percent: 100).waves(of: Self.hosts).map(\.hosts.count) == [1, 9])
        #expect(WavePlan(canaries: ["web1", "web2"], percent: 1).waves(of: Self.hosts).map(\.hosts.count) == [2, 1, 7])
        #expect(WavePlan(canaries: [], percent: 50).waves(of: []).isEmpty)
    }
}
