/// One executable file mapping of a `/proc/PID/maps` line:
/// `7f12-7f34 r-xp 00028000 fd:01 1311 /usr/lib/x86_64-linux-gnu/libc.so.6`.
struct MapsLine {
    var major: UInt32
    var minor: UInt32
    var inode: UInt64
    /// Without the kernel's ` (deleted)`.
    var path: String
    var deleted: Bool

    /// Reads a line; `nil` when the mapping is not executable or not of a file that could be
    /// replaced (anonymous memory, `[vdso]`, memfd, `/dev`, System V shared memory).
    init?(_ line: Slice<UnsafeBufferPointer<UInt8>>) {
        var fields = FieldReader(line)
        guard fields.next() != nil, let permissions = fields.next(), permissions.count >= 3,
              permissions[permissions.startIndex + 2] == UInt8(ascii: "x"),
              fields.next() != nil, let device = fields.next(), let inodeField = fields.next(),
              let inode = Self.number(inodeField, radix: 10), inode != 0
        else { return nil }
        let rest = fields.rest
        guard rest.first == UInt8(ascii: "/") else { return nil }
        var path = String(decoding: rest, as: UTF8.self)
        for prefix in ["/memfd:", "/dev/", "/SYSV", "/proc/"] where path.hasPrefix(prefix) { return nil }
        deleted = path.hasSuffix(" (deleted)")
        if deleted { path.removeLast(" (deleted)".count) }
        guard let colon = device.firstIndex(of: UInt8(ascii: ":")),
              let major = Self.number(device[..<colon], radix: 16),
              let minor = Self.number(device[(colon + 1)...], radix: 16)
        else { return nil }
        self.major = UInt32(truncatingIfNeeded: major)
        self.minor = UInt32(truncatingIfNeeded: minor)
        self.inode = inode
        self.path = path
    }

    /// The same mapped file: the same path, device and inode, both deleted or both not.
    func isSameFile(as other: MapsLine) -> Bool {
        inode == other.inode && deleted == other.deleted && minor == other.minor && major == other.major && path == other.path
    }

    private static func number(_ digits: Slice<UnsafeBufferPointer<UInt8>>, radix: UInt64) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: digit = UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            value = value &* radix &+ digit
        }
        return value
    }

    /// Space-separated fields, then the rest of the line (the path, which may hold spaces).
    private struct FieldReader {
        var remaining: Slice<UnsafeBufferPointer<UInt8>>

        init(_ line: Slice<UnsafeBufferPointer<UInt8>>) { remaining = line }

        mutating func next() -> Slice<UnsafeBufferPointer<UInt8>>? {
            skipSpaces()
            guard !remaining.isEmpty else { return nil }
            let end = remaining.firstIndex(of: UInt8(ascii: " ")) ?? remaining.endIndex
            let field = remaining[remaining.startIndex..<end]
            remaining = remaining[end...]
            return field
        }

        var rest: Slice<UnsafeBufferPointer<UInt8>> {
            mutating get {
                skipSpaces()
                return remaining
            }
        }

        private mutating func skipSpaces() {
            while remaining.first == UInt8(ascii: " ") { remaining = remaining.dropFirst() }
        }
    }
}
