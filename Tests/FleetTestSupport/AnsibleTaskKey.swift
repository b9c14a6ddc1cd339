/// A task of a play on a host, by the names Ansible prints.
public struct AnsibleTaskKey: Sendable, Hashable, CustomStringConvertible {
    public var play: String
    public var task: String
    public var host: String

    public init(play: String, task: String, host: String) {
        self.play = play
        self.task = task
        self.host = host
    }

    public var description: String { "\(host): \(play) / \(task)" }
}
