extension Node {
    /// A scalar's text (whatever its tag), or for a mapping the text of the value under a key
    /// tagged `value` (`=`), as Yams reads a mapping through YAML's value type; otherwise `nil`.
    public var string: String? {
        if case .mapping(let mapping) = self {
            for (key, value) in mapping where key.tag.name == .value {
                return value.string
            }
        }
        return scalar?.string
    }

    /// `true`, `yes` or `on`, `false`, `no` or `off` in any letter case, as Yams constructs a
    /// `Bool`: `nil` for other text, for a scalar tagged `str` (quoted ones are) and for
    /// mappings and sequences. The tag is not otherwise looked at: `!!int yes` is `true`.
    public var bool: Bool? {
        guard let scalar, scalar.tag.name != .str else { return nil }
        switch scalar.string.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: return nil
        }
    }

    /// The plain scalar's integer as Yams constructs an `Int`, whatever its tag: `_` ignored,
    /// `0x`, `0b`, `0o` and a leading `0` (octal) as prefixes, `1:30` in base 60, a sign.
    /// `nil` for quoted and block scalars, text that is no integer, a value out of `Int`'s
    /// range, and mappings and sequences. Like Yams, `-0` is `nil` (it reads as an empty octal).
    public var int: Int? {
        guard let scalar, scalar.style == .any || scalar.style == .plain else { return nil }
        let withSign = String(scalar.string.filter { $0 != "_" })
        if withSign == "0" { return 0 }
        let negative = withSign.hasPrefix("-")
        let signPrefix = negative ? "-" : ""
        let digits = withSign.dropFirst(negative || withSign.hasPrefix("+") ? 1 : 0)
        for (prefix, radix) in [("0x", 16), ("0b", 2), ("0o", 8), ("0", 8)] where digits.hasPrefix(prefix) {
            return Int(signPrefix + digits.dropFirst(prefix.count), radix: radix)
        }
        if digits.contains(":") { return Self.sexagesimal(withSign) }
        return Int(withSign)
    }

    /// `[-+]?D(:D)*` with every `D` a decimal `Int`, in base 60 (`1:30` is 90).
    private static func sexagesimal(_ text: String) -> Int? {
        var digits = Substring(text)
        var sign = 1
        if digits.hasPrefix("-") {
            sign = -1
            digits = digits.dropFirst()
        } else if digits.hasPrefix("+") {
            digits = digits.dropFirst()
        }
        var value = 0
        for component in digits.split(separator: ":", omittingEmptySubsequences: false) {
            guard let number = Int(component, radix: 10) else { return nil }
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 60)
            let (sum, overflowSum) = shifted.addingReportingOverflow(number)
            guard !overflowShift, !overflowSum else { return nil }
            value = sum
        }
        return sign * value
    }
}
