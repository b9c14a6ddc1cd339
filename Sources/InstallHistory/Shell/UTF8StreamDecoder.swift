/// Turns a stream of bytes cut anywhere (a terminal's reads) into text, chunk by chunk: a
/// character split between two chunks comes out whole with the second, and bytes that are not
/// UTF-8 come out as U+FFFD, one per maximal invalid sequence (as `String(decoding:as:)`
/// replaces them), so the text is always valid whatever a program wrote.
public struct UTF8StreamDecoder: Sendable {
    /// The start of a character whose remaining bytes have not arrived yet (at most 3 bytes).
    private var pending: [UInt8] = []

    public init() {}

    /// The text of `bytes` after what came before; the start of a character cut at the end is
    /// kept for the next call (or `finish()`).
    public mutating func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        var all = pending
        all.append(contentsOf: bytes)
        let cut = Self.incompleteTailStart(of: all)
        pending = Array(all[cut...])
        return String(decoding: all[..<cut], as: UTF8.self)
    }

    /// What is left of a cut character at the end of the stream, as U+FFFD; empty when nothing.
    public mutating func finish() -> String {
        defer { pending = [] }
        return pending.isEmpty ? "" : String(decoding: pending, as: UTF8.self)
    }

    /// Where a character that may still be completed by more bytes begins at the end of
    /// `bytes`: a lead byte among the last three whose sequence is longer than what follows it
    /// and whose continuation bytes so far are all continuation bytes. `bytes.count` when none.
    static func incompleteTailStart(of bytes: [UInt8]) -> Int {
        let end = bytes.count
        var index = end - 1
        while index >= max(0, end - 3) {
            let byte = bytes[index]
            if byte & 0xC0 == 0x80 {
                index -= 1
                continue
            }
            let length: Int
            switch byte {
            case 0xC2...0xDF: length = 2
            case 0xE0...0xEF: length = 3
            case 0xF0...0xF4: length = 4
            default: return end
            }
            return end - index < length ? index : end
        }
        return end
    }
}
