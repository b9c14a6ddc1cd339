#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import InstallHistory

/// The JSON events of a commit-confirmed run (`--json`, Documentation/JSON-EVENTS.md), on
/// stdout after its job's events: `run.armed` (its deadline and regressions), `run.deadline`
/// (an extension moved it), and its end: `run.confirmed`, `run.reverted` (with the undo's run
/// and why) or `run.expired` (with why it was not reverted).
enum ConfirmEventLine {
    /// The event for `window` as it is now: `run.armed`, `run.confirmed`, `run.reverted`,
    /// `run.expired`; `nil` while it is being reverted.
    static func line(_ event: String? = nil, for window: ConfirmWindow, at now: Date = Date()) -> String? {
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        let name: String
        switch window.state {
        case .armed: name = event ?? "run.armed"
        case .confirmed: name = "run.confirmed"
        case .reverted: name = "run.reverted"
        case .expired: name = "run.expired"
        case .reverting: return nil
        }
        var object = Event(event: name, run: window.run, deadline: window.deadline.formatted(format), time: now.formatted(format))
        if name == "run.armed" {
            object.regressions = window.regressions
            object.revertOnRegression = window.revertOnRegression
        }
        if window.state == .reverted || window.state == .expired { object.reason = window.reason }
        if window.state == .reverted { object.revertRun = window.revertRun }
        return try? SortedKeysJSON.text(of: object)
    }

    private struct Event: Encodable {
        var event: String
        var run: Int64
        var deadline: String
        var time: String
        var regressions: [HealthRegression]?
        var revertOnRegression: Bool?
        var reason: String?
        var revertRun: Int64?
    }
}
