#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a night writes before each step (`NightAction.writeStamp`): the policy, the window's
/// opening it runs in, and the whole machine. A restarted admin process reads it and resumes
/// the same night (`NightResumption`), so no host is patched twice.
public struct NightStamp: Sendable, Hashable, Codable {
    /// The stamp format's version; a stamp of another version is not resumed.
    public static let currentVersion = 1

    public let version: Int
    /// The policy's path as the night was started with.
    public let policy: String
    public let window: WindowOccurrence
    public let machine: NightMachine

    public init(policy: String, window: WindowOccurrence, machine: NightMachine) {
        version = Self.currentVersion
        self.policy = policy
        self.window = window
        self.machine = machine
    }

    /// Whether the night this stamp records was missed, seen at `now`: its window closed with
    /// the night not over, and `current` (the opening open at `now`, or the next) is another one.
    public func isMissed(at now: Int, current: WindowOccurrence?) -> Bool {
        !machine.phase.isOver && window.end <= now && window != current
    }

    /// The stamp as JSON, keys sorted so that equal stamps are equal bytes.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// The stamp in `data`. Throws `DecodingError` when it is not one.
    public static func decoded(from data: Data) throws -> NightStamp {
        try JSONDecoder().decode(NightStamp.self, from: data)
    }
}
