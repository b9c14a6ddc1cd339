/// One wave of a night: its hosts, patched before the gate that lets the next wave start.
public struct Wave: Sendable, Hashable, Codable {
    /// What made the wave.
    public enum Kind: Sendable, Hashable, Codable {
        case canary
        case percent(Int)
        case rest
    }

    public let kind: Kind
    /// Never empty, each host once.
    public let hosts: [String]

    public init(kind: Kind, hosts: [String]) {
        self.kind = kind
        self.hosts = hosts
    }

    /// `canary`, `34%`, `the rest`: how `patch --check` names the wave.
    public var label: String {
        switch kind {
        case .canary: "canary"
        case .percent(let percent): "\(percent)%"
        case .rest: "the rest"
        }
    }
}
