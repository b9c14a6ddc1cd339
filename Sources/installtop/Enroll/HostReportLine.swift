/// One line a `HostSetupScript` printed: `installtop-enroll: fact KEY VALUE…`, `step NAME
/// STATE TEXT`, `words TEXT` or `end`; anything else is some command's own output.
enum HostReportLine: Sendable, Equatable {
    /// What the host has (`package ii 0.2.0`, `engine no WORDS`).
    case fact(key: String, value: String)
    /// A step began, was done, had nothing to do, or failed, with what it says.
    case step(EnrollStep, EnrollStepState, text: String)
    /// A line the failing command printed, before its step's `failed`.
    case words(String)
    /// The script reached its end.
    case end
    /// A line without the marker.
    case other(String)

    private static let marker = "installtop-enroll: "

    init(_ line: String) {
        guard line.hasPrefix(Self.marker) else { self = .other(line); return }
        let rest = line.dropFirst(Self.marker.count)
        let words = rest.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        switch words.first {
        case "end":
            self = .end
        case "words":
            self = .words(String(rest.dropFirst("words".count).drop { $0 == " " }))
        case "fact" where words.count >= 2:
            self = .fact(key: words[1], value: words.dropFirst(2).joined(separator: " "))
        case "step" where words.count >= 3:
            if let step = EnrollStep(rawValue: words[1]), let state = EnrollStepState(rawValue: words[2]) {
                self = .step(step, state, text: words.count > 3 ? words[3] : "")
            } else {
                self = .other(line)
            }
        default:
            self = .other(line)
        }
    }
}
