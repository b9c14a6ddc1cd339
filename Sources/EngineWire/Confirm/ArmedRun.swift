#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A commit-confirmed run as an engine tells its clients (`ArmedRuns`): what the board's row
/// counts down to, and the word it ends with (Documentation/COMMIT-CONFIRMED.md).
public struct ArmedRun: Sendable, Hashable {
    /// Where its window stands; the history's own words.
    public enum State: String, Sendable, Hashable {
        /// Waits for a confirmation until `deadline`.
        case armed
        /// Its revert is under way.
        case reverting
        /// Kept: it stays.
        case confirmed
        /// Undone from its kept versions (`revertRun`).
        case reverted
        /// Its revert could not put it back, or it could not be armed (`reason`).
        case expired

        /// Still waiting or reverting: what a countdown shows.
        public var isOpen: Bool { self == .armed || self == .reverting }
    }

    /// The job run (`installtop history --jobs`), which `confirm --run` names.
    public var run: Int
    public var state: State
    public var armedAt: Date
    public var deadline: Date
    /// When it was confirmed, or its revert claimed or ended; `nil` while armed.
    public var decidedAt: Date?
    /// Why it was reverted (or could not be), or `nil`.
    public var reason: String?
    /// Each check that regressed, as `check: before → after`.
    public var regressions: [String]
    /// The run's name (`apt upgrade · 3 to upgrade`).
    public var name: String
    /// The undo's run once a revert ran one.
    public var revertRun: Int?

    public init(run: Int, state: State, armedAt: Date, deadline: Date, decidedAt: Date? = nil, reason: String? = nil,
                regressions: [String] = [], name: String, revertRun: Int? = nil) {
        self.run = run
        self.state = state
        self.armedAt = armedAt
        self.deadline = deadline
        self.decidedAt = decidedAt
        self.reason = reason
        self.regressions = regressions
        self.name = name
        self.revertRun = revertRun
    }

    /// The run as a JSON object.
    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "run": .integer(run), "state": .string(state.rawValue), "armedAt": .string(RFC3339.string(from: armedAt)),
            "deadline": .string(RFC3339.string(from: deadline)), "name": .string(name),
            "regressions": .array(regressions.map(JSONValue.string)),
        ]
        if let decidedAt { members["decidedAt"] = .string(RFC3339.string(from: decidedAt)) }
        if let reason { members["reason"] = .string(reason) }
        if let revertRun { members["revertRun"] = .integer(revertRun) }
        return .object(JSONMembers(members))
    }

    /// Reads one run of an `armed` event.
    /// - Throws: `unexpectedMessage` naming what is missing or wrong.
    public init(json value: JSONValue) throws(WireError) {
        guard case .object(let object) = value else { throw WireError(.unexpectedMessage, "armed: a run must be an object") }
        guard let run = object["run"]?.intValue, let stateText = object["state"]?.stringValue,
              let state = State(rawValue: stateText),
              let armedAt = object["armedAt"]?.stringValue.flatMap(RFC3339.date(from:)),
              let deadline = object["deadline"]?.stringValue.flatMap(RFC3339.date(from:))
        else { throw WireError(.unexpectedMessage, "armed: a run needs run, a known state, armedAt and deadline") }
        self.init(run: run, state: state, armedAt: armedAt, deadline: deadline,
                  decidedAt: object["decidedAt"]?.stringValue.flatMap(RFC3339.date(from:)),
                  reason: object["reason"]?.stringValue,
                  regressions: object["regressions"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                  name: object["name"]?.stringValue ?? "", revertRun: object["revertRun"]?.intValue)
    }
}
