import Glibc
import Testing
import TextBasics

/// `LocalTimeText` reads and writes dpkg's log times in the machine's zone.
@Suite("LocalTimeText: strftime and mktime in local time")
struct LocalTimeTextTests {
    @Test("a time written then read is the same second; a text that does not match is nil")
    func roundTrip() throws {
        let format = "%Y-%m-%d %H:%M:%S"
        for seconds in [0, 1_795_836_379, 1_801_000_000] {
            let text = LocalTimeText.string(seconds, format: format)
            #expect(text.count == 19, "\(text)")
            #expect(LocalTimeText.seconds(ofDateTime: text) == seconds, "\(text)")
        }
        #expect(LocalTimeText.seconds(ofDateTime: "2026-11-25 13:11") == nil)
        #expect(LocalTimeText.seconds(ofDateTime: "2026-11-25 13:11:19 and more") == nil)
        #expect(LocalTimeText.seconds(ofDateTime: "2026-02-30 13:11:19") == nil)
        #expect(LocalTimeText.seconds(ofDateTime: "2026-1x-25 13:11:19") == nil)
    }
}
