#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A short message in the footer (what a key did, why a command was refused); it replaces the
/// key hints until it expires, or, for what the operator comes back to, until their next key.
public struct StatusMessage: Sendable, Hashable {
    /// The text (the monitor's own words; sanitized when drawn all the same).
    public var text: String
    /// When it disappears; `Date.distantFuture` for a message that stays until a key.
    public var expiresAt: Date
    /// The jobs it speaks of while they are unfinished (`press a again to force it`): it
    /// disappears, before `expiresAt`, once none of them is left unfinished. Empty for a
    /// message that only expires.
    public var whileUnfinished: Set<Int>

    /// How long a message stays.
    public static let lifetime: TimeInterval = 5
    /// Whether the next key takes it away (it never expires by itself): what the operator comes
    /// back to (how a shell on a host ended), which they may read only after a long look at the
    /// board, or after leaving the terminal for a while.
    public var staysUntilKey: Bool

    public init(text: String, expiresAt: Date, whileUnfinished: Set<Int> = [], staysUntilKey: Bool = false) {
        self.text = text
        self.expiresAt = staysUntilKey ? .distantFuture : expiresAt
        self.whileUnfinished = whileUnfinished
        self.staysUntilKey = staysUntilKey
    }
}
