import Glibc

extension UpdateRunOutcome {
    /// How it ended, in words: "exited with status 1", "killed by signal 9 (Killed)".
    public var summary: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signaled(let signal): "killed by signal \(signal) (\(Self.signalName(signal)))"
        case .failedToStart(let reason): reason
        }
    }

    /// The raw status for `unmappedResultCode`: the exit status, or 128 + the signal.
    public var unmappedCode: Int32 {
        switch self {
        case .exited(let status): status
        case .signaled(let signal): 128 + signal
        case .failedToStart: 0
        }
    }

    static func signalName(_ signal: Int32) -> String {
        guard let text = strsignal(signal) else { return "unknown signal" }
        return String(cString: text)
    }
}
