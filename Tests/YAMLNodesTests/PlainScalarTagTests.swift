@testable import InstallEngine
import Testing
import Yams

@Suite("Plain scalar tags: the rules of Yams' default resolver, without its regular expressions")
struct PlainScalarTagTests {
    /// Characters the rules look at, and a few they do not.
    private static let alphabet = Array("0159abefxoO.:-+_<=~TtZ n").map(String.init)

    /// Pieces of numbers, timestamps and keywords, joined at random into longer texts.
    private static let pieces = [
        "2024", "-", "01", "1", "7", "T", "t", " ", "\t", ":", "30", "59", "60", "5", ".", "5", "e", "E", "+", "-3",
        "_", "0x", "0b", "0o", "0", "ff", "inf", "Inf", "nan", "NaN", "Z", "yes", "No", "null", "~", "<<", "=",
    ]

    private static func yamsTag(_ text: String) -> Yams.Tag.Name { Resolver.default.resolveTag(of: Node(text)) }

    @Test("every text of up to three characters from the alphabet resolves as Yams resolves it")
    func shortTexts() {
        var texts = [""]
        var previous = [""]
        for _ in 1...3 {
            previous = previous.flatMap { prefix in Self.alphabet.map { prefix + $0 } }
            texts += previous
        }
        let differing = texts.filter { PlainScalarTag.resolve($0) != Self.yamsTag($0) }
        #expect(differing.isEmpty, "\(differing.prefix(20))")
    }

    @Test("longer texts joined from number, timestamp and keyword pieces resolve as Yams resolves them")
    func joinedTexts() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var texts: [String] = []
        for _ in 0..<6_000 {
            texts.append((0..<(1 + next(7))).map { _ in Self.pieces[next(Self.pieces.count)] }.joined())
        }
        let differing = texts.filter { PlainScalarTag.resolve($0) != Self.yamsTag($0) }
        #expect(differing.isEmpty, "\(differing.prefix(20))")
    }

    @Test("in a manifest, a written tag wins over the text, quoted text stays text, and `<<` still merges")
    func manifestTags() throws {
        let written = """
            jobs:
              - name: J
                stop_on_failure: !!str yes
                updates: [{id: a, install: x}]
            """
        let errors = #expect(throws: ManifestErrors.self) { try ManifestLoader.load(yaml: written, path: "m.yaml") }
        #expect(errors?.errors.map(\.message) == ["expected true or false; got `yes`"])

        let quoted = """
            jobs:
              - name: J
                stop_on_failure: "yes"
                updates: [{id: a, install: x}]
            """
        let quotedErrors = #expect(throws: ManifestErrors.self) { try ManifestLoader.load(yaml: quoted, path: "m.yaml") }
        #expect(quotedErrors?.errors.map(\.message) == ["expected true or false; got the quoted string `yes`"])

        let merged = """
            jobs:
              - &first
                name: A
                stop_on_failure: on
                updates: [{id: a, install: x}]
              - <<: *first
                name: B
                updates: [{id: b, install: x}]
            """
        #expect(try ManifestLoader.load(yaml: merged, path: "m.yaml").jobs[1].stopOnFailure)
    }

    @Test(arguments: [
        ("yes", Yams.Tag.Name.bool), ("OFF", .bool), ("0b1_0", .int), ("-0o17", .int), ("017", .int), ("4_200_000", .int),
        ("0x1F", .int), ("190:20:30", .int), ("1.5e+3", .float), (".5", .float), ("-.inf", .float), (".NaN", .float),
        ("190:20:30.15", .float), ("<<", .merge), ("", .null), ("~", .null), ("2001-12-14", .timestamp),
        ("2001-12-14t21:59:43.10-05:00", .timestamp), ("2001-12-14 21:59:43.10 Z", .timestamp), ("=", .value),
        ("1:60", .str), ("-.nan", .str), ("0b", .str), ("2001-12-1", .str), ("ÿes", .str), ("10s", .str),
    ])
    func knownTexts(_ text: String, _ expected: Yams.Tag.Name) {
        #expect(PlainScalarTag.resolve(text) == expected)
        #expect(Self.yamsTag(text) == expected)
    }
}
