#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads a zone of the tz database from its TZif file (RFC 8536) in the system's zoneinfo
/// folder (`/usr/share/zoneinfo`, Debian's `tzdata`, or `$TZDIR`).
public enum ZoneInfoFile {
    /// The zoneinfo folder: `$TZDIR` when set, else `/usr/share/zoneinfo`.
    public static var defaultFolder: String {
        ProcessInfo.processInfo.environment["TZDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/share/zoneinfo"
    }

    /// The rules of the zone `name` (`Europe/Berlin`, `UTC`) from `folder`; `nil` when the name
    /// is not a zone there (also for names with `..` or a leading `/`, which would read other
    /// files) or its file is not TZif.
    public static func rules(named name: String, in folder: String = defaultFolder) -> ZoneRules? {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }),
              let data = FileManager.default.contents(atPath: folder + "/" + name) else { return nil }
        return parse(Array(data), name: name)
    }

    /// The zone in TZif `bytes`; `nil` when they are not TZif. Version 2 and later files are read
    /// from their 64-bit block and footer; version 1 files from their 32-bit block.
    public static func parse(_ bytes: [UInt8], name: String) -> ZoneRules? {
        guard let first = Header(bytes, at: 0) else { return nil }
        guard first.version >= 2 else { return block(bytes, header: first, at: 44, timeSize: 4, name: name, footer: nil) }
        let secondStart = 44 + first.blockSize(timeSize: 4)
        guard let second = Header(bytes, at: secondStart) else { return nil }
        let blockStart = secondStart + 44
        let footerStart = blockStart + second.blockSize(timeSize: 8)
        var footer: PosixZoneRule?
        if footerStart < bytes.count, bytes[footerStart] == UInt8(ascii: "\n") {
            let rest = bytes[(footerStart + 1)...]
            if let end = rest.firstIndex(of: UInt8(ascii: "\n")) {
                footer = PosixZoneRule(String(decoding: bytes[(footerStart + 1)..<end], as: UTF8.self))
            }
        }
        return block(bytes, header: second, at: blockStart, timeSize: 8, name: name, footer: footer)
    }

    /// The counts a TZif header gives.
    private struct Header {
        let version: Int
        let utIndicators, standardIndicators, leapSeconds, transitions, types, abbreviationBytes: Int

        init?(_ bytes: [UInt8], at start: Int) {
            guard bytes.count >= start + 44, bytes[start..<(start + 4)].elementsEqual("TZif".utf8) else { return nil }
            let versionByte = bytes[start + 4]
            version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
            func count(_ index: Int) -> Int { Int(ZoneInfoFile.integer(bytes, at: start + 20 + 4 * index, size: 4)) }
            utIndicators = count(0)
            standardIndicators = count(1)
            leapSeconds = count(2)
            transitions = count(3)
            types = count(4)
            abbreviationBytes = count(5)
            guard types > 0 else { return nil }
        }

        func blockSize(timeSize: Int) -> Int {
            transitions * (timeSize + 1) + types * 6 + abbreviationBytes + leapSeconds * (timeSize + 4) + standardIndicators + utIndicators
        }
    }

    private static func block(_ bytes: [UInt8], header: Header, at start: Int, timeSize: Int, name: String, footer: PosixZoneRule?) -> ZoneRules? {
        guard bytes.count >= start + header.blockSize(timeSize: timeSize) else { return nil }
        let typesStart = start + header.transitions * (timeSize + 1)
        let abbreviationsStart = typesStart + header.types * 6
        var offsets: [ZoneRules.Offset] = []
        for index in 0..<header.types {
            let entry = typesStart + index * 6
            let seconds = Int(Int32(bitPattern: UInt32(truncatingIfNeeded: integer(bytes, at: entry, size: 4))))
            let abbreviationIndex = Int(bytes[entry + 5])
            var abbreviation = ""
            if abbreviationIndex < header.abbreviationBytes {
                let from = abbreviationsStart + abbreviationIndex
                let to = bytes[from..<(abbreviationsStart + header.abbreviationBytes)].firstIndex(of: 0) ?? from
                abbreviation = String(decoding: bytes[from..<to], as: UTF8.self)
            }
            offsets.append(ZoneRules.Offset(seconds: seconds, abbreviation: abbreviation))
        }
        var transitions: [ZoneRules.Transition] = []
        for index in 0..<header.transitions {
            let raw = integer(bytes, at: start + index * timeSize, size: timeSize)
            let at = timeSize == 4 ? Int(Int32(bitPattern: UInt32(truncatingIfNeeded: raw))) : Int(Int64(bitPattern: raw))
            let type = Int(bytes[start + header.transitions * timeSize + index])
            guard type < offsets.count else { return nil }
            transitions.append(ZoneRules.Transition(at: at, offset: offsets[type]))
        }
        return ZoneRules(name: name, transitions: transitions, initial: offsets[0], footer: footer)
    }

    /// A big-endian unsigned integer of `size` bytes.
    private static func integer(_ bytes: [UInt8], at start: Int, size: Int) -> UInt64 {
        bytes[start..<(start + size)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
