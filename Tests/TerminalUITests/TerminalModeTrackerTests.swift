import Testing
import TerminalUI

/// What output did that the reset after a shell or a replay must undo with care.
@Suite("TerminalModeTracker and TerminalModeReset")
struct TerminalModeTrackerTests {
    private func tracked(_ chunks: [String]) -> TerminalModeTracker {
        var tracker = TerminalModeTracker()
        for chunk in chunks { tracker.scan(Array(chunk.utf8)) }
        return tracker
    }

    @Test("The last alternate-screen switch counts, in any of its three forms and cut anywhere between chunks")
    func alternateScreen() {
        #expect(!tracked(["plain text \u{1B}[1mbold\u{1B}[0m"]).alternateScreen)
        #expect(tracked(["\u{1B}[?1049h"]).alternateScreen)
        #expect(!tracked(["\u{1B}[?1049h vim \u{1B}[?1049l"]).alternateScreen)
        #expect(tracked(["\u{1B}[?47h"]).alternateScreen && tracked(["\u{1B}[?1047h"]).alternateScreen)
        #expect(tracked(["\u{1B}[?1;1049h"]).alternateScreen, "among other modes")
        for cut in 1..<8 {
            let sequence = Array("x\u{1B}[?1049h".utf8)
            var tracker = TerminalModeTracker()
            tracker.scan(sequence[..<cut])
            tracker.scan(sequence[cut...])
            #expect(tracker.alternateScreen, "cut after \(cut) bytes")
        }
        #expect(!tracked(["\u{1B}[1049h", "\u{1B}[?10490h"]).alternateScreen, "not private, or another number")
    }

    @Test("A scrolling region or origin mode set at any point moves the margins; other sequences do not")
    func margins() {
        #expect(tracked(["\u{1B}[5;20r"]).movedMargins)
        #expect(tracked(["\u{1B}[", "r"]).movedMargins)
        #expect(tracked(["\u{1B}[?6h"]).movedMargins)
        #expect(!tracked(["\u{1B}[?6l\u{1B}[2J\u{1B}[H\u{1B}]0;title\u{07}\u{1B}[?25l"]).movedMargins)
        #expect(!tracked([String(repeating: "\u{1B}[", count: 40)]).movedMargins, "an unended sequence is no region")
    }

    @Test("The reset leaves the alternate screen and resets the margins only when the output set them, then the common resets")
    func resetBytes() {
        let plain = String(decoding: TerminalModeReset.bytes(after: TerminalModeTracker()), as: UTF8.self)
        #expect(!plain.contains("\u{1B}[?1049l") && !plain.contains("\u{1B}[r"))
        #expect(plain.hasSuffix(String(decoding: TerminalModeReset.common, as: UTF8.self)))
        #expect(plain.hasPrefix("\u{18}\u{1B}\\"), "a string left open is ended first")
        let both = String(decoding: TerminalModeReset.bytes(after: tracked(["\u{1B}[?1049h\u{1B}[3;9r"])), as: UTF8.self)
        #expect(both.contains("\u{1B}[?1049l\u{1B}[r\u{1B}[?6l\u{1B}[9999;1H"))
        let common = String(decoding: TerminalModeReset.common, as: UTF8.self)
        for mode in ["\u{1B}[?1000l", "\u{1B}[?1006l", "\u{1B}[?2004l", "\u{1B}[4l", "\u{1B}(B", "\u{1B}[m", "\u{1B}[?25h", "\u{1B}[!p"] {
            #expect(common.contains(mode), "\(mode.debugDescription)")
        }
    }
}
