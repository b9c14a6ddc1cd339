import Testing
@testable import YAMLNodes

@Suite("Plain scalar tags: the rules of Yams' default resolver, without its regular expressions")
struct PlainScalarTagTests {
    /// Yams' `Resolver.default` rules, its patterns copied verbatim, in the order it tries them:
    /// the oracle, matched by Swift's regular expressions (Yams runs them with ICU's).
    private static let yamsRules: [(YAMLNodes.Tag.Name, String)] = [
        (.bool, "^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$"),
        (.int, "^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$"),
        (.float, "^(?:[-+]?(?:[0-9][0-9_]*)(?:\\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\\.[0-9_]+(?:[eE][-+][0-9]+)?"
            + "|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\\.[0-9_]*|[-+]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN))$"),
        (.merge, "^(?:<<)$"),
        (.null, "^(?:~|null|Null|NULL|)$"),
        (.timestamp, "^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?"
            + "(?:[Tt]|[ \\t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\\.[0-9]*)?(?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$"),
        (.value, "^(?:=)$"),
    ]
    /// Characters the rules look at, and a few they do not.
    private static let alphabet = Array("0159abefxoO.:-+_<=~TtZ n").map(String.init)

    /// Pieces of numbers, timestamps and keywords, joined at random into longer texts.
    private static let pieces = [
        "2024", "-", "01", "1", "7", "T", "t", " ", "\t", ":", "30", "59", "60", "5", ".", "5", "e", "E", "+", "-3",
        "_", "0x", "0b", "0o", "0", "ff", "inf", "Inf", "nan", "NaN", "Z", "yes", "No", "null", "~", "<<", "=",
    ]

    /// The oracle's rules, compiled: once per test, since `Regex` is not `Sendable` to share.
    private static func yamsResolver() throws -> (String) -> YAMLNodes.Tag.Name {
        let rules = try yamsRules.map { ($0.0, try Regex($0.1)) }
        return { text in rules.first { text.firstMatch(of: $0.1) != nil }?.0 ?? .str }
    }

    @Test("every text of up to three characters from the alphabet resolves as Yams resolves it")
    func shortTexts() throws {
        let yamsTag = try Self.yamsResolver()
        var texts = [""]
        var previous = [""]
        for _ in 1...3 {
            previous = previous.flatMap { prefix in Self.alphabet.map { prefix + $0 } }
            texts += previous
        }
        let differing = texts.filter { PlainScalarTag.resolve($0) != yamsTag($0) }
        #expect(differing.isEmpty, "\(differing.prefix(20))")
    }

    @Test("longer texts joined from number, timestamp and keyword pieces resolve as Yams resolves them")
    func joinedTexts() throws {
        let yamsTag = try Self.yamsResolver()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var texts: [String] = []
        for _ in 0..<6_000 {
            texts.append((0..<(1 + next(7))).map { _ in Self.pieces[next(Self.pieces.count)] }.joined())
        }
        let differing = texts.filter { PlainScalarTag.resolve($0) != yamsTag($0) }
        #expect(differing.isEmpty, "\(differing.prefix(20))")
    }

    @Test(arguments: [
        ("yes", YAMLNodes.Tag.Name.bool), ("OFF", .bool), ("0b1_0", .int), ("-0o17", .int), ("017", .int), ("4_200_000", .int),
        ("0x1F", .int), ("190:20:30", .int), ("1.5e+3", .float), (".5", .float), ("-.inf", .float), (".NaN", .float),
        ("190:20:30.15", .float), ("<<", .merge), ("", .null), ("~", .null), ("2001-12-14", .timestamp),
        ("2001-12-14t21:59:43.10-05:00", .timestamp), ("2001-12-14 21:59:43.10 Z", .timestamp), ("=", .value),
        ("1:60", .str), ("-.nan", .str), ("0b", .str), ("2001-12-1", .str), ("ÿes", .str), ("10s", .str),
    ])
    func knownTexts(_ text: String, _ expected: YAMLNodes.Tag.Name) throws {
        #expect(PlainScalarTag.resolve(text) == expected)
        #expect(Resolver.default.resolveTag(from: text) == expected)
        #expect(Resolver.basic.resolveTag(from: text) == .str)
        #expect(try Self.yamsResolver()(text) == expected)
    }
}
