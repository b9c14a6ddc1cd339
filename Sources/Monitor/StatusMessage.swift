#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A short message in the footer (what a key did, why a command was refused); it replaces the
/// key hints until it expires.
public struct StatusMessage: Sendable, Hashable {
    /// The text (the monitor's own words; sanitized when drawn all the same).
    public var text: String
    /// When it disappears.
    public var expiresAt: Date
    /// The jobs it speaks of while they are unfinished (`press a again to force it`): it
    /// disappears, before `expiresAt`, once none of them is left unfinished. Empty for a
    /// message that only expires.
    public var whileUnfinished: Set<Int>

    /// How long a message stays.
    public static let lifetime: TimeInterval = 5
    /// How long what the operator comes back to stays (how a shell on a host ended): they may
    /// look at the board a while before they read the footer.
    public static let returnLifetime: TimeInterval = 30

    public init(text: String, expiresAt: Date, whileUnfinished: Set<Int> = []) {
        self.text = text
        self.expiresAt = expiresAt
        self.whileUnfinished = whileUnfinished
    }
}
