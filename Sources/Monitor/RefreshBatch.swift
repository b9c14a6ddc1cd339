/// Hosts' apt lists refreshed a few at a time from the board (`P` with hosts marked): each
/// host's engine runs its refresh job (`apt-get update`, then its pending snapshot), at most
/// `parallel` hosts at once, in board order. A refresh changes nothing installed, so nothing is
/// asked first and a failed refresh holds nothing back: its host's row says why.
public struct RefreshBatch: Sendable, Hashable {
    /// Hosts not sent yet, in board order.
    public internal(set) var waiting: [String]
    /// Hosts whose refresh was sent, with its job's number on the host once its engine queued
    /// it.
    public internal(set) var sent: [String: Int?] = [:]
    /// Hosts whose refresh ended (completed, refused, or their link lost).
    public internal(set) var finished = 0
    /// The finished hosts whose lists were not refreshed (their job failed or was aborted, their
    /// engine refused, their link was lost), in the order they ended.
    public internal(set) var notRefreshed: [String] = []
    /// How many hosts refresh at once (`attach --parallel N`), at least 1.
    public let parallel: Int

    /// A refresh of `hosts`, `parallel` at a time (less than 1 counts as 1).
    public init(hosts: [String], parallel: Int) {
        waiting = hosts
        self.parallel = max(1, parallel)
    }

    /// Every host of the batch, finished or not.
    public var total: Int { waiting.count + sent.count + finished }

    /// Nothing is left to send and nothing runs.
    public var isOver: Bool { waiting.isEmpty && sent.isEmpty }
}
