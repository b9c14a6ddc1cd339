/// When a player writes each piece of a recording's output: its time in the recording, each
/// pause cut to `idleLimit` seconds at most, divided by `speed`. Input and resize events are
/// not output and are left out; events out of order (a clock that went back) wait no time.
public struct AsciicastSchedule: Sendable, Hashable {
    /// One write: `data` at `at` seconds after the playback began.
    public struct Step: Sendable, Hashable {
        public var at: Double
        public var data: String
    }

    public let steps: [Step]

    /// - Parameters:
    ///   - speed: how many times faster than recorded; `.infinity` writes everything at once.
    ///   - idleLimit: the longest pause kept, in recorded seconds; `nil` keeps every pause.
    /// - Precondition: `speed` > 0, `idleLimit` ≥ 0.
    public init(_ recording: AsciicastRecording, speed: Double = 1, idleLimit: Double? = nil) {
        precondition(speed > 0 && (idleLimit ?? 0) >= 0, "a speed above 0 and an idle limit not below 0")
        var steps: [Step] = []
        var previous = 0.0
        var elapsed = 0.0
        for event in recording.events where event.code == .output {
            var pause = max(0, event.time - previous)
            if let idleLimit { pause = min(pause, idleLimit) }
            previous = max(previous, event.time)
            elapsed += pause
            steps.append(Step(at: speed.isInfinite ? 0 : elapsed / speed, data: event.data))
        }
        self.steps = steps
    }
}
