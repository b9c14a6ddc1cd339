import Glibc

/// Small byte-level helpers shared by the progress-channel parsers.
enum LineBytes {
    /// Space or tab.
    @inline(__always)
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// True when `line[range]` holds only blanks (or nothing).
    static func isBlank(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        range.allSatisfy { isBlank(line[$0]) }
    }

    /// True when `line[start..<end]` begins with `literal`.
    static func hasPrefix(_ literal: StaticString, in line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard end - start >= count, let base = line.baseAddress else { return false }
        return memcmp(base + start, literal.utf8Start, count) == 0
    }

    /// The index just after `word` when the line continues with `word` followed by a blank or
    /// the end of the line; `nil` otherwise (so `progressive` is not `progress`).
    static func keyword(_ word: StaticString, in line: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int? {
        guard hasPrefix(word, in: line, from: start, to: end) else { return nil }
        let after = start + word.utf8CodeUnitCount
        guard after == end || isBlank(line[after]) else { return nil }
        return after
    }

    /// The text in `line[range]` without surrounding blanks; `nil` when nothing is left.
    /// Invalid UTF-8 becomes U+FFFD.
    static func text(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, isBlank(line[lower]) { lower += 1 }
        while upper > lower, isBlank(line[upper - 1]) { upper -= 1 }
        guard lower < upper else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: line[lower..<upper]), as: UTF8.self)
    }
}
