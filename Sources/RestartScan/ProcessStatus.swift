/// What `/proc/PID/status` says about a process: the lines installtop reads (`Uid:`,
/// `TracerPid:`, `SigPnd:`, `ShdPnd:`). A line that is missing or unreadable leaves its value
/// `nil` (or no signal pending); unknown lines are skipped.
public struct ProcessStatus: Sendable, Hashable {
    /// The real user id (the first number of `Uid:`).
    public var realUID: UInt32?
    /// The pid of the process tracing this one (`TracerPid:`); 0 when none.
    public var tracerPID: Int32?
    /// The signals pending for the thread (`SigPnd:`) and for the whole thread group
    /// (`ShdPnd:`), as bit masks: bit N - 1 is signal N.
    public var pendingSignals: UInt64 = 0
    public var sharedPendingSignals: UInt64 = 0

    /// Reads the text of a `status` file; an empty text gives a status that knows nothing.
    public init(_ text: some StringProtocol) {
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].split(whereSeparator: { $0 == "\t" || $0 == " " }).first
            switch line[..<colon] {
            case "Uid": realUID = value.flatMap { UInt32($0) }
            case "TracerPid": tracerPID = value.flatMap { Int32($0) }
            case "SigPnd": pendingSignals = value.flatMap { UInt64($0, radix: 16) } ?? 0
            case "ShdPnd": sharedPendingSignals = value.flatMap { UInt64($0, radix: 16) } ?? 0
            default: continue
            }
        }
    }

    /// Whether `signal` (SIGKILL: 9) is pending for the thread or its thread group.
    public func isPending(_ signal: Int32) -> Bool {
        guard signal >= 1, signal <= 64 else { return false }
        let bit: UInt64 = 1 << UInt64(signal - 1)
        return (pendingSignals | sharedPendingSignals) & bit != 0
    }
}
