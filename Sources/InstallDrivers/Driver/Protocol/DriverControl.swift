import EngineWire

/// What installtop writes to a driver's control descriptor (4), one line each.
public enum DriverControl: Sendable, Hashable {
    /// `{"type":"stop"}`: stop at the next safe point (rule 24); with a job, only that job.
    case stop(job: String?)

    /// The line to write, newline included.
    public var line: String {
        var object = JSONObject()
        switch self {
        case .stop(let job):
            object.add("type", "stop")
            if let job { object.add("job", job) }
        }
        return object.json + "\n"
    }
}
