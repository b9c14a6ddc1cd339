/// Debian's order of package versions (deb-version(7), dpkg's `verrevcmp`): epoch, then the
/// upstream version, then the Debian revision; in each, runs of non-digits compare by a byte
/// order in which `~` sorts before everything (even the end) and letters before other
/// characters, and runs of digits compare as numbers. Used to tell a downgrade from an upgrade
/// where apt says neither (`Inst P [old] (new …)` for both).
public enum DebianVersion {
    /// Negative when `left` is older than `right`, zero when equal, positive when newer.
    /// A malformed epoch counts as 0, as dpkg reads it leniently.
    public static func compare(_ left: String, _ right: String) -> Int {
        let (leftEpoch, leftUpstream, leftRevision) = parts(of: left)
        let (rightEpoch, rightUpstream, rightRevision) = parts(of: right)
        if leftEpoch != rightEpoch { return leftEpoch < rightEpoch ? -1 : 1 }
        let upstream = verrevcmp(Array(leftUpstream.utf8), Array(rightUpstream.utf8))
        return upstream != 0 ? upstream : verrevcmp(Array(leftRevision.utf8), Array(rightRevision.utf8))
    }

    private static func parts(of version: String) -> (epoch: Int, upstream: Substring, revision: Substring) {
        var rest = Substring(version)
        var epoch = 0
        if let colon = rest.firstIndex(of: ":") {
            epoch = Int(rest[..<colon]) ?? 0
            rest = rest[rest.index(after: colon)...]
        }
        guard let dash = rest.lastIndex(of: "-") else { return (epoch, rest, "") }
        return (epoch, rest[..<dash], rest[rest.index(after: dash)...])
    }

    /// dpkg's weight of one byte of a non-digit run; `nil` (the end) weighs 0.
    private static func order(_ byte: UInt8?) -> Int {
        guard let byte else { return 0 }
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return 0
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"): return Int(byte)
        case UInt8(ascii: "~"): return -1
        default: return Int(byte) + 256
        }
    }

    private static func isDigit(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func verrevcmp(_ left: [UInt8], _ right: [UInt8]) -> Int {
        var i = 0
        var j = 0
        func at(_ bytes: [UInt8], _ index: Int) -> UInt8? { index < bytes.count ? bytes[index] : nil }
        while i < left.count || j < right.count {
            var firstDifference = 0
            while (i < left.count && !isDigit(left[i])) || (j < right.count && !isDigit(right[j])) {
                let leftOrder = order(isDigit(at(left, i)) ? nil : at(left, i))
                let rightOrder = order(isDigit(at(right, j)) ? nil : at(right, j))
                if leftOrder != rightOrder { return leftOrder - rightOrder }
                i += 1
                j += 1
            }
            while at(left, i) == UInt8(ascii: "0") { i += 1 }
            while at(right, j) == UInt8(ascii: "0") { j += 1 }
            while isDigit(at(left, i)) && isDigit(at(right, j)) {
                if firstDifference == 0 { firstDifference = Int(left[i]) - Int(right[j]) }
                i += 1
                j += 1
            }
            if isDigit(at(left, i)) { return 1 }
            if isDigit(at(right, j)) { return -1 }
            if firstDifference != 0 { return firstDifference }
        }
        return 0
    }
}
