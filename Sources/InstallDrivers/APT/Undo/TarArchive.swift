/// The regular files of a tar archive held in memory: what `dpkg-deb --ctrl-tarfile` writes
/// (a .deb's `control`, `md5sums`, scripts), read in one process instead of one `dpkg-deb`
/// per member. Reads POSIX ustar (with its name prefix), GNU long names (`L`) and pax `path`
/// records, the forms dpkg-deb and tar write; other member types are skipped.
struct TarArchive {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The contents of the regular files named `wanted` (without a leading `./`), by that name.
    /// A name not in the archive is absent; a truncated archive gives what came before the cut.
    func files(named wanted: Set<String>) -> [String: [UInt8]] {
        var found: [String: [UInt8]] = [:]
        var offset = 0
        var longName: String?
        while offset + Self.block <= bytes.count, found.count < wanted.count {
            let header = bytes[offset..<offset + Self.block]
            // Two zero blocks end the archive; one is enough to know nothing follows.
            if header.allSatisfy({ $0 == 0 }) { break }
            guard let size = Self.octal(header, at: 124, length: 12) else { break }
            let start = offset + Self.block
            let end = start + size
            guard end <= bytes.count else { break }
            let content = bytes[start..<end]
            let type = header[header.startIndex + 156]
            switch type {
            case UInt8(ascii: "L"):
                longName = Self.string(content[...], at: 0, length: size)
            case UInt8(ascii: "x"):
                longName = Self.paxPath(content) ?? longName
            case UInt8(ascii: "0"), 0:
                let name = Self.normalized(longName ?? Self.headerName(header))
                if wanted.contains(name) { found[name] = Array(content) }
                longName = nil
            default:
                longName = nil
            }
            offset = start + (size + Self.block - 1) / Self.block * Self.block
        }
        return found
    }

    private static let block = 512

    /// `name`, with ustar's `prefix` before it when the header is POSIX ustar (GNU's headers use
    /// those bytes for other things).
    private static func headerName(_ header: ArraySlice<UInt8>) -> String {
        let name = string(header, at: 0, length: 100)
        let magic = string(header, at: 257, length: 6)
        guard magic == "ustar" else { return name }
        let prefix = string(header, at: 345, length: 155)
        return prefix.isEmpty ? name : prefix + "/" + name
    }

    private static func normalized(_ name: String) -> String {
        var name = Substring(name)
        while name.hasPrefix("./") { name = name.dropFirst(2) }
        return String(name)
    }

    /// The NUL-terminated text of `length` bytes from `at`.
    private static func string(_ bytes: ArraySlice<UInt8>, at: Int, length: Int) -> String {
        let field = bytes[(bytes.startIndex + at)..<(bytes.startIndex + at + length)]
        return String(decoding: field.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// An octal number field (spaces and NULs around it); `nil` for anything else, such as
    /// GNU's base-256 sizes, which no control member needs.
    private static func octal(_ bytes: ArraySlice<UInt8>, at: Int, length: Int) -> Int? {
        let text = string(bytes, at: at, length: length).filter { $0 != " " }
        return text.isEmpty ? 0 : Int(text, radix: 8)
    }

    /// The `path` record of a pax extended header (`LENGTH path=NAME\n` records).
    private static func paxPath(_ content: ArraySlice<UInt8>) -> String? {
        for record in String(decoding: content, as: UTF8.self).split(separator: "\n") {
            guard let space = record.firstIndex(of: " ") else { continue }
            let field = record[record.index(after: space)...]
            if field.hasPrefix("path=") { return String(field.dropFirst("path=".count)) }
        }
        return nil
    }
}
