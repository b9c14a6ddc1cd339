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

    /// How long a message stays.
    public static let lifetime: TimeInterval = 5

    public init(text: String, expiresAt: Date) {
        self.text = text
        self.expiresAt = expiresAt
    }
}
