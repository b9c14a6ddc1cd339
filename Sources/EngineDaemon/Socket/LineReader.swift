import Glibc

/// Splits a byte stream into lines (`\n`-terminated, a `\r` before it dropped), holding at
/// most `maximumLength` bytes of an unfinished line: the rest of a longer line is skipped and
/// reported once, so a client sending 10 MB without a newline costs neither memory nor a stall.
public struct LineReader: Sendable {
    public enum Line: Sendable, Hashable {
        case complete([UInt8])
        /// A line longer than the limit was skipped; `length` is its length in bytes.
        case tooLong(length: Int)
    }

    public let maximumLength: Int
    /// The unfinished line.
    private var buffer: [UInt8] = []
    /// Bytes of an overlong line skipped so far; `nil` while not skipping.
    private var skipped: Int?

    public init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// Bytes of the unfinished line held.
    public var pendingCount: Int { buffer.count }

    /// Adds bytes read from the stream and returns the lines they complete.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) -> [Line] {
        var lines: [Line] = []
        guard let base = bytes.baseAddress else { return lines }
        var offset = 0
        while offset < bytes.count {
            let newlinePointer = memchr(base + offset, 0x0A, bytes.count - offset)
            let newline = newlinePointer.map { base.distance(to: UnsafeRawPointer($0)) }
            let chunk = UnsafeRawBufferPointer(start: base + offset, count: (newline ?? bytes.count) - offset)
            if let skippedSoFar = skipped {
                if newline != nil {
                    lines.append(.tooLong(length: skippedSoFar + chunk.count))
                    skipped = nil
                } else {
                    skipped = skippedSoFar + chunk.count
                }
            } else if buffer.count + chunk.count > maximumLength {
                skipped = buffer.count + chunk.count
                buffer = []
                if newline != nil {
                    lines.append(.tooLong(length: skipped!))
                    skipped = nil
                }
            } else if newline != nil && buffer.isEmpty {
                // The common case: a whole line in one read, copied once.
                var line = Array(chunk)
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                lines.append(.complete(line))
            } else {
                buffer.append(contentsOf: chunk)
                if newline != nil {
                    if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
                    lines.append(.complete(buffer))
                    buffer = []
                }
            }
            guard let newline else { break }
            offset = newline + 1
        }
        return lines
    }
}
