/// Marked hosts upgraded a few at a time from the board (`U`, Documentation/MANY-HOSTS.md "The board"):
/// each host's engine plans an `apt upgrade` and holds it; one dialog shows every plan; the
/// hosts said yes to start in board order, at most `parallel` at once, the board sending each
/// held job's `confirm` as a slot frees. After a host's job fails no new host starts until the
/// operator continues (`U`) or stops (`X`); the running ones go on either way.
public struct Rollout: Sendable, Hashable {
    /// The hosts, in board order: the order they start in.
    public internal(set) var hosts: [RolloutHost]
    /// How many hosts run at once (`attach --parallel N`), at least 1.
    public let parallel: Int
    /// The host whose failure holds new starts back; `nil` while starting goes on.
    public internal(set) var pausedBy: String?
    /// The dialog was answered: `y` (hosts start) or no (everything declined).
    public internal(set) var answered = false
    /// The dialog's selected host and how far its list is scrolled.
    var cursor = 0
    var scroll = 0

    /// A rollout of `hosts` planning, `parallel` at a time (less than 1 counts as 1).
    public init(hosts: [String], parallel: Int) {
        self.hosts = hosts.map(RolloutHost.init(name:))
        self.parallel = max(1, parallel)
    }

    /// Hosts whose job was confirmed and has not completed.
    public var runningCount: Int { hosts.count { if case .started = $0.phase { return true } else { return false } } }

    /// Hosts not started that still would be (planning, held, waiting).
    public var leftCount: Int { hosts.count(where: \.isLeft) }

    /// Hosts whose job completed, failed or not.
    public var doneCount: Int {
        hosts.count { host in
            switch host.phase {
            case .succeeded, .failed: return true
            default: return false
            }
        }
    }

    /// Nothing runs and nothing is left to start: the header forgets it.
    public var isOver: Bool { answered && runningCount == 0 && leftCount == 0 }

    /// The position of `host`, if it takes part.
    func index(of host: String) -> Int? { hosts.firstIndex { $0.name == host } }
}
