/// How a policy splits its hosts into waves: the canary hosts by name, then `percent` of all the
/// policy's hosts, then the rest.
public struct WavePlan: Sendable, Hashable {
    /// In the order the policy writes them; each one of the policy's hosts.
    public let canaries: [String]
    /// 1 to 100: the second wave's size as a share of every host of the policy (canaries
    /// included), rounded up; `nil` for no such wave.
    public let percent: Int?
    /// Hosts of a wave patched at once, at least 1.
    public let atOnce: Int

    public init(canaries: [String], percent: Int?, atOnce: Int = 1) {
        self.canaries = canaries
        self.percent = percent
        self.atOnce = atOnce
    }

    /// `hosts` (the policy's, in inventory order) as waves, the same for the same input: the
    /// canaries that are among `hosts` in the policy's order; then the first `percent`% of
    /// `hosts.count` (rounded up) of the other hosts in inventory order; then the rest. A wave
    /// that would be empty is left out, so 3 hosts with one canary and 100 % are two waves.
    /// With 10 hosts, one canary and 34 %: 1, 4 (3.4 rounded up) and 5.
    public func waves(of hosts: [String]) -> [Wave] {
        let present = Set(hosts)
        var seen = Set<String>()
        let canaryHosts = canaries.filter { present.contains($0) && seen.insert($0).inserted }
        var others = hosts.filter { !seen.contains($0) }
        var waves: [Wave] = []
        if !canaryHosts.isEmpty { waves.append(Wave(kind: .canary, hosts: canaryHosts)) }
        if let percent {
            let size = min(others.count, (hosts.count * percent + 99) / 100)
            if size > 0 { waves.append(Wave(kind: .percent(percent), hosts: Array(others.prefix(size)))) }
            others.removeFirst(size)
        }
        if !others.isEmpty { waves.append(Wave(kind: .rest, hosts: others)) }
        return waves
    }
}
