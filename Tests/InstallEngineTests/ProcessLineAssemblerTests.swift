@testable import InstallEngine
import Testing

@Suite("LineAssembler: bounded lines from pipe chunks")
struct ProcessLineAssemblerTests {
    /// Feeds `chunks` then finishes; returns the lines as text.
    private func lines(_ chunks: [String], maxLineBytes: Int = 16) -> [String] {
        var assembler = LineAssembler(maxLineBytes: maxLineBytes)
        var result: [String] = []
        for chunk in chunks {
            Array(chunk.utf8).withUnsafeBufferPointer { bytes in
                assembler.feed(bytes) { result.append(String(decoding: $0, as: UTF8.self)) }
            }
        }
        assembler.finish { result.append(String(decoding: $0, as: UTF8.self)) }
        return result
    }

    @Test func linesSplitAcrossChunksAreJoined() {
        #expect(lines(["one\ntw", "o\nthr", "ee", "\n"]) == ["one", "two", "three"])
    }

    @Test func oneTrailingCarriageReturnIsRemoved() {
        #expect(lines(["a\r\nb\r", "\nc\r\r\n"]) == ["a", "b", "c\r"])
    }

    @Test func emptyLinesAreLines() {
        #expect(lines(["\n\nx\n"]) == ["", "", "x"])
    }

    @Test func anUnfinishedLastLineComesOutOnFinish() {
        #expect(lines(["done\npartial"]) == ["done", "partial"])
        #expect(lines(["done\n"]) == ["done"])
    }

    @Test func aLongLineInOneChunkIsCutAndMarked() {
        #expect(lines(["0123456789abcdefXYZ\nnext\n"]) == ["0123456789abcdef …[cut 3 bytes]", "next"])
    }

    @Test func aLongLineAcrossChunksCountsEveryDroppedByte() {
        let chunks = ["0123456789", "abcdefghij", String(repeating: "z", count: 1000), "\nok\n"]
        #expect(lines(chunks) == ["0123456789abcdef …[cut 1004 bytes]", "ok"])
    }

    @Test func aLineOfExactlyTheLimitIsKeptWhole() {
        #expect(lines(["0123456789abcdef\n"]) == ["0123456789abcdef"])
        #expect(lines(["01234567", "89abcdef\n"]) == ["0123456789abcdef"])
    }

    @Test func aLongUnfinishedLineIsCutOnFinish() {
        #expect(lines([String(repeating: "q", count: 20)]) == [String(repeating: "q", count: 16) + " …[cut 4 bytes]"])
    }

    @Test func theCutNeverSplitsACharacter() {
        // 15 ASCII bytes then "é" (2 bytes): the limit of 16 falls inside it.
        #expect(lines([String(repeating: "a", count: 15) + "é\n"]) == [String(repeating: "a", count: 15) + " …[cut 2 bytes]"])
        // A 4-byte character ending exactly at the limit is kept.
        #expect(lines([String(repeating: "a", count: 12) + "😀b\n"]) == [String(repeating: "a", count: 12) + "😀 …[cut 1 byte]"])
    }
}
