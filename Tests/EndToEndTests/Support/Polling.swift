import Foundation
import TestProcessSupport

/// Like `eventually`, but throws `conditionNotMet(what)` when the condition never held, for
/// waits the rest of a test cannot do without.
func waitUntil(_ what: String, timeout: Duration = .seconds(180), _ condition: () async throws -> Bool) async throws {
    guard try await eventually(timeout: timeout, condition) else { throw EndToEndError.conditionNotMet(what) }
}
