import EngineDaemon
import Testing

@Suite("LineReader: lines from a byte stream, bounded")
struct LineReaderTests {
    private func feed(_ reader: inout LineReader, _ text: String) -> [LineReader.Line] {
        Array(text.utf8).withUnsafeBytes { reader.append($0) }
    }

    private func line(_ text: String) -> LineReader.Line { .complete(Array(text.utf8)) }

    @Test func linesSplitAcrossAppends() {
        var reader = LineReader(maximumLength: 100)
        #expect(feed(&reader, "{\"comm").isEmpty)
        #expect(reader.pendingCount == 6)
        #expect(feed(&reader, "and\":1}\n{\"b\"").map { $0 } == [line("{\"command\":1}")])
        #expect(feed(&reader, ":2}\nthird\nfourth") == [line("{\"b\":2}"), line("third")])
        #expect(reader.pendingCount == 6)
        #expect(feed(&reader, "\n") == [line("fourth")])
        #expect(reader.pendingCount == 0)
        #expect(feed(&reader, "").isEmpty)
    }

    @Test func carriageReturnsBeforeNewlinesAreDropped() {
        var reader = LineReader(maximumLength: 100)
        #expect(feed(&reader, "one\r\ntwo\r") == [line("one")])
        #expect(feed(&reader, "\n\r\n\n") == [line("two"), line(""), line("")])
        #expect(feed(&reader, "a\rb\n") == [line("a\rb")], "only a \\r right before the newline goes")
    }

    @Test func anOverlongLineIsReportedOnceWithItsLength() {
        var reader = LineReader(maximumLength: 10)
        #expect(feed(&reader, "0123456").isEmpty)
        #expect(feed(&reader, "789abcdef").isEmpty, "past the limit: skipping, nothing reported yet")
        #expect(reader.pendingCount == 0, "the skipped bytes are not held")
        #expect(feed(&reader, String(repeating: "x", count: 1000)).isEmpty)
        #expect(feed(&reader, "end\nnext\n") == [.tooLong(length: 16 + 1000 + 3), line("next")])
        #expect(feed(&reader, "after\n") == [line("after")])
    }

    @Test func anOverlongLineInOneAppend() {
        var reader = LineReader(maximumLength: 4)
        #expect(feed(&reader, "ok\ntoolong\nfine\n") == [line("ok"), .tooLong(length: 7), line("fine")])
    }

    @Test func exactlyAtTheLimitIsAccepted() {
        var reader = LineReader(maximumLength: 8)
        #expect(feed(&reader, "12345678\n") == [line("12345678")])
        #expect(feed(&reader, "1234") .isEmpty)
        #expect(feed(&reader, "5678\n") == [line("12345678")], "also when split")
        #expect(feed(&reader, "123456789\n") == [.tooLong(length: 9)], "one more byte is too long")
        #expect(feed(&reader, "\n") == [line("")])
    }
}
