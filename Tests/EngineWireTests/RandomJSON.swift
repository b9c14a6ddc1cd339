import EngineWire
import InstallEngineTesting

/// Random JSON trees for round-trip tests: every kind of value, strings with characters that
/// need escaping (quotes, controls, U+2028, DEL) and astral ones, numbers at the edges.
enum RandomJSON {
    /// Kept well under `JSONParser.maximumDepth` so that every tree is accepted.
    static let maximumDepth = 6

    static func value(depth: Int, using generator: inout SeededGenerator) -> JSONValue {
        let containers = depth < maximumDepth
        switch Int.random(in: 0..<(containers ? 9 : 6), using: &generator) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &generator))
        case 2: return .integer(integer(using: &generator))
        case 3: return .double(double(using: &generator))
        case 4, 5: return .string(string(using: &generator))
        case 6, 7:
            let count = Int.random(in: 0...5, using: &generator)
            return .array((0..<count).map { _ in value(depth: depth + 1, using: &generator) })
        default:
            var members = JSONMembers()
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                members[string(using: &generator)] = value(depth: depth + 1, using: &generator)
            }
            return .object(members)
        }
    }

    private static func integer(using generator: inout SeededGenerator) -> Int {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return [0, 1, -1, Int.max, Int.min][Int.random(in: 0..<5, using: &generator)]
        case 1: return Int.random(in: -1000...1000, using: &generator)
        default: return Int(bitPattern: UInt(generator.next()))
        }
    }

    private static func double(using generator: inout SeededGenerator) -> Double {
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: return [0, -0.0, 0.1, 1e15, 1e300, Double.leastNonzeroMagnitude, -2.5, Double.greatestFiniteMagnitude][Int.random(in: 0..<8, using: &generator)]
        case 1: return Double(Int.random(in: -1_000_000...1_000_000, using: &generator))
        case 2: return Double(Int.random(in: -100_000...100_000, using: &generator)) / 100
        case 3: return Double.random(in: -1e6...1e6, using: &generator)
        default:
            while true {
                let value = Double(bitPattern: generator.next())
                if value.isFinite { return value }
            }
        }
    }

    private static func string(using generator: inout SeededGenerator) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 0...12, using: &generator) {
            text.append(scalar(using: &generator))
        }
        return String(text)
    }

    private static func scalar(using generator: inout SeededGenerator) -> Unicode.Scalar {
        let special: [UInt32] = [0x22, 0x5C, 0x2F, 0x0A, 0x0D, 0x09, 0x00, 0x1F, 0x7F, 0x2028, 0x2029, 0xFFFD, 0xFEFF]
        let value: UInt32
        switch Int.random(in: 0..<6, using: &generator) {
        case 0: value = special[Int.random(in: 0..<special.count, using: &generator)]
        case 1, 2: value = UInt32.random(in: 0x20..<0x7F, using: &generator)
        case 3: value = UInt32.random(in: 0..<0x20, using: &generator)
        case 4: value = UInt32.random(in: 0xA0..<0xD800, using: &generator)
        default: value = UInt32.random(in: 0x1_0000...0x10_FFFF, using: &generator)
        }
        return Unicode.Scalar(value) ?? "?"
    }
}
