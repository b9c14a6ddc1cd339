/// A metric family in Prometheus' text exposition format (version 0.0.4, what node_exporter's
/// textfile collector reads): `# HELP`, `# TYPE`, then a line per sample.
///
/// Names follow Prometheus' conventions (Documentation/METRICS.md): `installtop_` first, base
/// units (`_seconds`, `_timestamp_seconds`), `_total` on counters. A family with no samples
/// writes only its HELP and TYPE lines, which parsers accept.
public struct MetricFamily: Sendable, Hashable {
    public var name: String
    /// One line of what it measures; a backslash or a line break in it is escaped when written.
    public var help: String
    public var type: MetricType
    public var samples: [MetricSample]

    /// A family; `name` must be a valid metric name (`[a-zA-Z_:][a-zA-Z0-9_:]*`), which is a
    /// programming error otherwise (every name is a literal of this module).
    public init(name: String, help: String, type: MetricType, samples: [MetricSample] = []) {
        precondition(Self.isValidName(name, allowingColon: true), "not a metric name: \(name)")
        self.name = name
        self.help = help
        self.type = type
        self.samples = samples
    }

    /// The family's lines, each ending in a line break.
    public var text: String {
        var text = "# HELP \(name) \(Self.escapedHelp(help))\n# TYPE \(name) \(type.rawValue)\n"
        for sample in samples {
            text += name + sample.suffix
            if !sample.labels.isEmpty {
                text += "{" + sample.labels.map { label in
                    precondition(Self.isValidName(label.name, allowingColon: false) && !label.name.hasPrefix("__"),
                                 "not a label name: \(label.name)")
                    return "\(label.name)=\"\(Self.escapedLabelValue(label.value))\""
                }.joined(separator: ",") + "}"
            }
            text += " " + Self.valueText(sample.value) + "\n"
        }
        return text
    }

    /// The whole exposition of `families`, in their order: what a textfile holds. Ends in a line
    /// break (the format requires the last line to end in one); empty for no families.
    public static func exposition(_ families: [MetricFamily]) -> String {
        families.map(\.text).joined()
    }

    /// A label value as the text format writes it between quotes: `\` as `\\`, `"` as `\"`, a
    /// line feed as `\n`; everything else as it is (UTF-8).
    public static func escapedLabelValue(_ value: String) -> String {
        escaped(value, quotes: true)
    }

    /// A HELP text as the text format writes it: `\` as `\\` and a line feed as `\n` (quotes
    /// stay as they are there).
    public static func escapedHelp(_ help: String) -> String {
        escaped(help, quotes: false)
    }

    /// `text` with `\` and line feeds escaped, and `"` too when `quotes`.
    private static func escaped(_ text: String, quotes: Bool) -> String {
        var escaped = ""
        for character in text.unicodeScalars {
            switch character {
            case "\\": escaped += "\\\\"
            case "\"" where quotes: escaped += "\\\""
            case "\n": escaped += "\\n"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// A value as Go's and Python's parsers read it: a whole number without a fraction
    /// (`3`, `1764331200`), others in Swift's shortest exact form (`0.25`, `1.5e+20`), and
    /// `+Inf`, `-Inf`, `NaN`.
    public static func valueText(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return value.description
    }

    /// `[a-zA-Z_:][a-zA-Z0-9_:]*` for a metric name, without the colons for a label name.
    static func isValidName(_ name: String, allowingColon: Bool) -> Bool {
        guard let first = name.unicodeScalars.first else { return false }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || (allowingColon && scalar == ":")
        }
        return isLetter(first) && name.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) }
    }
}
