import Glibc

/// Splits one pipe's bytes into lines while holding at most one bounded line.
///
/// Lines end at `\n`; one trailing `\r` is removed. A line longer than `maxLineBytes` keeps its
/// first `maxLineBytes` bytes (cut back to a whole UTF-8 character), drops the rest up to the
/// next `\n`, and ends with ` …[cut N bytes]` where N counts the dropped bytes (`1 byte`).
/// Complete lines inside a chunk are handed out without copying; only a line split across
/// chunks is buffered.
struct LineAssembler {
    let maxLineBytes: Int
    /// The start of a line whose end has not arrived yet (at most `maxLineBytes` bytes).
    private var pending: [UInt8] = []
    /// Bytes of the current line thrown away past the limit; > 0 means the line is cut.
    private var droppedBytes = 0

    /// - Parameter maxLineBytes: the most bytes kept of one line (at least 4, one character).
    init(maxLineBytes: Int) {
        self.maxLineBytes = max(4, maxLineBytes)
    }

    /// Feeds one chunk read from the pipe; calls `emit` for every line it completes, in order.
    mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        guard let base = chunk.baseAddress else { return }
        var start = 0
        while start < chunk.count {
            guard let found = memchr(base + start, Int32(UInt8(ascii: "\n")), chunk.count - start) else {
                append(UnsafeBufferPointer(rebasing: chunk[start...]))
                return
            }
            let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            let piece = UnsafeBufferPointer(rebasing: chunk[start..<newline])
            if pending.isEmpty, droppedBytes == 0, piece.count <= maxLineBytes {
                emit(Self.withoutCarriageReturn(piece))
            } else {
                append(piece)
                completeLine(emit: emit)
            }
            start = newline + 1
        }
    }

    /// Hands out the unfinished last line, if any (at end of file or when giving up on a pipe).
    mutating func finish(emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        if !pending.isEmpty || droppedBytes > 0 { completeLine(emit: emit) }
    }

    // MARK: - Bounding

    private mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        if droppedBytes > 0 {
            droppedBytes += bytes.count
            return
        }
        let room = maxLineBytes - pending.count
        if bytes.count <= room {
            pending.append(contentsOf: bytes)
            return
        }
        pending.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<room]))
        droppedBytes = bytes.count - room
        let whole = Self.wholeCharacterPrefixLength(pending)
        droppedBytes += pending.count - whole
        pending.removeLast(pending.count - whole)
    }

    private mutating func completeLine(emit: (UnsafeBufferPointer<UInt8>) -> Void) {
        if droppedBytes > 0 {
            pending.append(contentsOf: " …[cut \(droppedBytes) \(droppedBytes == 1 ? "byte" : "bytes")]".utf8)
        } else if pending.last == UInt8(ascii: "\r") {
            pending.removeLast()
        }
        pending.withUnsafeBufferPointer { emit($0) }
        pending.removeAll(keepingCapacity: true)
        droppedBytes = 0
    }

    private static func withoutCarriageReturn(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let last = line.last, last == UInt8(ascii: "\r") else { return line }
        return UnsafeBufferPointer(rebasing: line.dropLast())
    }

    /// The length of `bytes` without a UTF-8 sequence that the cut left incomplete at its end.
    private static func wholeCharacterPrefixLength(_ bytes: [UInt8]) -> Int {
        var lead = bytes.count - 1
        while lead >= 0, bytes.count - lead <= 4, bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
        guard lead >= 0 else { return bytes.count }
        let byte = bytes[lead]
        let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        return lead + length > bytes.count ? lead : bytes.count
    }
}
