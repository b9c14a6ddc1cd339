/// What the backend runs for one update: an argv list, or a string for `/bin/sh -c`.
public enum UpdateCommand: Sendable, Hashable {
    /// `argv[0]` is looked up like `execvp` does: a name without `/` is searched in `PATH`,
    /// a relative path resolves against the update's working directory.
    case argv([String])
    /// Run as `/bin/sh -c STRING`.
    case shell(String)

    /// The command as an operator would type it, for messages and logs.
    public var displayString: String {
        switch self {
        case .argv(let arguments): return arguments.joined(separator: " ")
        case .shell(let script): return script
        }
    }
}
