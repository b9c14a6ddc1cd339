import Foundation
@testable import InstallHistory
import Testing

/// When pending versions were first seen, as the history keeps it for a patch night's age gate
/// (Documentation/POLICY.md, "Age"): kept across stores (an engine's restart), forgotten once a
/// version is no longer pending, kept when the list may be incomplete.
@Suite("When pending versions were first seen")
final class PendingFirstSeenTests {
    private let folder = TemporaryFolder()

    @Test("A version is dated when first listed and keeps that date; a version no longer listed is forgotten only when asked, and is new when it comes back")
    func firstSeenIsKept() throws {
        let monday = Date(timeIntervalSince1970: 1_800_000_000)
        let tuesday = monday.addingTimeInterval(86_400)
        let openssl = PendingVersion(package: "openssl", version: "3.0.15")
        let curl = PendingVersion(package: "curl", version: "8.5")
        let store = try HistoryStore(path: folder.file("history.sqlite3"))
        #expect(try store.firstSeen([openssl, curl], now: monday, forgettingOthers: true) == [openssl: monday, curl: monday])

        // Another store on the same file: the engine restarted. curl's candidate is now 8.6.
        let curlNext = PendingVersion(package: "curl", version: "8.6")
        let restarted = try HistoryStore(path: folder.file("history.sqlite3"))
        #expect(try restarted.firstSeen([openssl, curlNext], now: tuesday, forgettingOthers: false) == [openssl: monday, curlNext: tuesday])
        // A snapshot with a problem forgets nothing: 8.5 is still dated.
        #expect(try restarted.firstSeen([curl], now: tuesday, forgettingOthers: false) == [curl: monday])
        // A complete snapshot without curl 8.5 forgets it; listed again later, it is new.
        _ = try restarted.firstSeen([openssl, curlNext], now: tuesday, forgettingOthers: true)
        let wednesday = tuesday.addingTimeInterval(86_400)
        #expect(try restarted.firstSeen([openssl, curl], now: wednesday, forgettingOthers: true) == [openssl: monday, curl: wednesday])
        #expect(try restarted.firstSeen([], now: wednesday, forgettingOthers: true).isEmpty)
        #expect(try restarted.firstSeen([openssl], now: wednesday, forgettingOthers: true) == [openssl: wednesday])
    }
}
