import InstallEngine

/// The mappings a policy is made of, with the keys each accepts, for `unknown key` messages.
enum PolicySection: YAMLSection {
    case topLevel, hosts, window, waves, gate, age, commands, reboot

    /// In the order Documentation/POLICY.md shows them, which is the order messages list them.
    var allowedKeys: [String] {
        switch self {
        case .topLevel:
            ["hosts", "time_zone", "windows", "blackouts", "waves", "gate", "failure_budget", "age", "packages", "commands", "reboot", "notify"]
        case .hosts: ["inventory", "groups"]
        case .window: ["days", "start", "duration"]
        case .waves: ["canary", "percent", "at_once"]
        case .gate: ["confirm", "command"]
        case .age: ["updates", "security"]
        case .commands: ["before", "after"]
        case .reboot: ["enabled", "at_once", "command", "timeout"]
        }
    }

    /// Where a key is, for `unknown key `x` in gate`.
    var phrase: String {
        switch self {
        case .topLevel: "at the top level"
        case .hosts: "in hosts"
        case .window: "in a window"
        case .waves: "in waves"
        case .gate: "in gate"
        case .age: "in age"
        case .commands: "in commands"
        case .reboot: "in reboot"
        }
    }

    /// What the mapping should have been, for `expected …; got a list`.
    var expectation: String {
        switch self {
        case .topLevel: "a policy (a mapping with `hosts`, `time_zone`, `windows` and `gate`)"
        case .hosts: "hosts (a mapping with `inventory` and optional `groups`)"
        case .window: "a window (a mapping with `days`, `start` and `duration`)"
        case .waves: "waves (a mapping with optional `canary`, `percent` and `at_once`)"
        case .gate: "a gate (a mapping with `confirm` and optional `command`)"
        case .age: "ages (a mapping with optional `updates` and `security`)"
        case .commands: "commands (a mapping with optional `before` and `after`)"
        case .reboot: "reboot settings (a mapping with optional `enabled`, `at_once`, `command` and `timeout`)"
        }
    }
}
