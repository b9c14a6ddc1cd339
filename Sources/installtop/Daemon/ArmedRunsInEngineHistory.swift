#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import EngineDaemon
import EngineWire
import InstallHistory

/// The commit-confirmed runs still open (armed, or being reverted) in the history the engine
/// records into, for `installtop status` (Documentation/COMMIT-CONFIRMED.md): their deadlines
/// beside the engine's queue, since the engine reverts them. Read from the history file the
/// engine names (`about`), so nothing when the engine records none, is older than `about`,
/// or its history cannot be read by this user.
enum ArmedRunsInEngineHistory {
    /// The open windows of `client`'s engine's history, soonest deadline first; empty when
    /// there is none or it cannot be read.
    static func windows(asking client: EngineClient) -> [ConfirmWindow] {
        guard let reply = try? client.request(.about, timeout: .seconds(3)),
              let identity = try? EngineIdentity(reply: reply), let history = identity.history,
              let store = try? HistoryStore(path: history, createIfMissing: false) else { return [] }
        return (try? store.openConfirmWindows()) ?? []
    }

    /// `Armed runs …` and a line per window, after the queue's tables; empty for none.
    static func text(_ windows: [ConfirmWindow], now: Date = Date()) -> String {
        guard !windows.isEmpty else { return "" }
        return "\nArmed runs (commit-confirmed; the engine reverts each at its deadline):\n"
            + windows.map { "  run \($0.run): " + ConfirmWindowText.line($0, now: now) + "\n" }.joined()
    }

    /// `[{"run":12,"state":"armed","deadline":"…","reason":null}]`, dates RFC 3339 in UTC.
    static func jsonArray(_ windows: [ConfirmWindow]) -> String {
        let format = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
        let entries = windows.map { Entry(run: $0.run, state: $0.state.rawValue, deadline: $0.deadline.formatted(format), reason: $0.reason) }
        return (try? SortedKeysJSON.text(of: entries)) ?? "[]"
    }

    private struct Entry: Encodable {
        var run: Int64
        var state: String
        var deadline: String
        @NullWhenNil var reason: String?
    }
}
