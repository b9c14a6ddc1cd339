import EngineWire
import Testing
import InstallEngineTesting

@Suite("JSONParser: values, strings, numbers and refusals")
struct JSONParserTests {
    // MARK: - Values

    @Test func everyType() throws {
        #expect(try JSONParser.parse("null") == .null)
        #expect(try JSONParser.parse("true") == .bool(true))
        #expect(try JSONParser.parse("false") == .bool(false))
        #expect(try JSONParser.parse("42") == .integer(42))
        #expect(try JSONParser.parse("2.5") == .double(2.5))
        #expect(try JSONParser.parse("\"text\"") == .string("text"))
        #expect(try JSONParser.parse("[]") == .array([]))
        #expect(try JSONParser.parse("{}") == .object([:]))
        #expect(try JSONParser.parse(" \t\r\n 7 \n") == .integer(7), "whitespace around the value is allowed")
    }

    @Test func nestedObjectsAndArrays() throws {
        let text = #"{"a":[1,{"b":null,"c":[true,false,[]]}],"d":{"e":{"f":"g"}},"h":-3.25}"#
        let expected = JSONValue.object([
            "a": .array([.integer(1), .object(["b": .null, "c": .array([.bool(true), .bool(false), .array([])])])]),
            "d": .object(["e": .object(["f": .string("g")])]),
            "h": .double(-3.25),
        ])
        #expect(try JSONParser.parse(text) == expected)
        #expect(try JSONParser.parse(Array(text.utf8)) == expected, "bytes parse like the string")
        #expect(try JSONParser.parse(#"{"k":1,"k":2}"#) == .object(["k": .integer(2)]), "the last repeated key wins")
    }

    // MARK: - Strings

    @Test func simpleEscapes() throws {
        #expect(try JSONParser.parse(#""\" \\ \/ \b \f \n \r \t""#) == .string("\" \\ / \u{08} \u{0C} \n \r \t"))
        #expect(try JSONParser.parse(#""caf\u00e9""#) == .string("café"))
        #expect(try JSONParser.parse(#""\u0000\u001F""#) == .string("\u{0}\u{1F}"))
        #expect(try JSONParser.parse(#""before \u00E9 after""#) == .string("before é after"), "upper-case hex digits")
    }

    @Test func surrogatePairsJoin() throws {
        #expect(try JSONParser.parse(#""\ud83d\ude00""#) == .string("😀"))
        #expect(try JSONParser.parse(#""a\uD83D\uDE00b""#) == .string("a😀b"))
    }

    @Test func loneSurrogatesBecomeReplacementCharacters() throws {
        #expect(try JSONParser.parse(#""\ud83d""#) == .string("\u{FFFD}"), "high surrogate at the end")
        #expect(try JSONParser.parse(#""\ude00x""#) == .string("\u{FFFD}x"), "low surrogate alone")
        #expect(try JSONParser.parse(#""\ud83dx""#) == .string("\u{FFFD}x"), "high surrogate before a plain character")
        #expect(try JSONParser.parse(#""\ud83d\u0041""#) == .string("\u{FFFD}A"), "high surrogate before a non-surrogate escape")
        #expect(try JSONParser.parse(#""\ud83d\ud83d\ude00""#) == .string("\u{FFFD}😀"), "two highs, then a low")
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let bytes: [UInt8] = [0x22, 0x61, 0xFF, 0x62, 0xC3, 0x22]
        #expect(try JSONParser.parse(bytes) == .string("a\u{FFFD}b\u{FFFD}"))
        let escaped: [UInt8] = Array(#""\n"#.utf8) + [0xFE] + Array("\"".utf8)
        #expect(try JSONParser.parse(escaped) == .string("\n\u{FFFD}"), "also on the path with escapes")
    }

    // MARK: - Numbers

    @Test func integersAndDoubles() throws {
        #expect(try JSONParser.parse("1") == .integer(1))
        #expect(try JSONParser.parse("-0") == .integer(0))
        #expect(try JSONParser.parse("0") == .integer(0))
        #expect(try JSONParser.parse("1.5") == .double(1.5))
        #expect(try JSONParser.parse("1e3") == .double(1000))
        #expect(try JSONParser.parse("-2.5E-2") == .double(-0.025))
        #expect(try JSONParser.parse("9223372036854775807") == .integer(Int.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .integer(Int.min))
        #expect(try JSONParser.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONParser.parse("1.0") == .double(1), "a fraction makes a double even when whole")
    }

    // MARK: - Refusals

    @Test(arguments: [
        ("[1,]", 3),
        (#"{"a":1,}"#, 7),
        ("01", 1),
        ("-01", 2),
        ("\"a\u{01}b\"", 2),
        ("\"a\nb\"", 2),
        ("\"abc", 4),
        (#""a\n"#, 4),
        ("1 x", 2),
        ("{} {}", 3),
        ("", 0),
        ("   ", 3),
        ("nul", 0),
        ("1e999", 0),
        ("[-1e999]", 1),
        ("[1 2]", 3),
        (#"{"a" 1}"#, 5),
        ("-", 1),
        ("1.", 2),
        ("1e+", 3),
        (#""\x""#, 2),
        (#""\u12G4""#, 5),
    ])
    func refusalsNameTheOffset(text: String, offset: Int) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.offset == offset, "\(text.debugDescription): \(error.message)")
            #expect(error.description.hasPrefix("invalid JSON at byte \(offset + 1): "))
        }
    }

    @Test func nestingIsLimited() throws {
        let depth = JSONParser.maximumDepth
        #expect(depth == 64)
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(throws: Never.self) { try JSONParser.parse(deepest) }
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        do {
            _ = try JSONParser.parse(tooDeep)
            Issue.record("65 levels were accepted")
        } catch {
            #expect(error.offset == depth, "the 65th bracket is at fault")
        }
        let objects = String(repeating: #"{"a":"#, count: depth + 1) + "1" + String(repeating: "}", count: depth + 1)
        #expect(throws: JSONParseError.self) { try JSONParser.parse(objects) }
        let mixed = String(repeating: #"[{"a":"#, count: depth / 2) + "1" + String(repeating: "}]", count: depth / 2)
        #expect(throws: Never.self) { try JSONParser.parse(mixed) }
        let hostile = String(repeating: "[", count: 100_000)
        #expect(throws: JSONParseError.self, "deep input is refused, never a stack overflow") { try JSONParser.parse(hostile) }
    }

    // MARK: - Round trip

    @Test(arguments: 0..<8)
    func randomTreesRoundTrip(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed) &+ 0x9E37_79B9)
        for _ in 0..<200 {
            let value = RandomJSON.value(depth: 0, using: &generator)
            let text = value.json
            let parsed = try JSONParser.parse(text)
            #expect(parsed == value, "\(text)")
            #expect(parsed.json == text, "writing the parsed value gives the same text")
        }
    }

    @Test func wholeDoublesPrintWithAFractionAndStayDoubles() throws {
        #expect(JSONValue.double(3).json == "3.0")
        #expect(try JSONParser.parse(JSONValue.double(3).json) == .double(3))
        #expect(try JSONParser.parse(JSONValue.double(1e20).json) == .double(1e20))
        #expect(try JSONParser.parse(JSONValue.double(0.1).json) == .double(0.1))
        #expect(try JSONParser.parse(JSONValue.double(-Double.leastNonzeroMagnitude).json) == .double(-Double.leastNonzeroMagnitude))
        #expect(JSONValue.string("\u{2028}\u{7F}\u{1}").json == #""\u2028\u007f\u0001""#)
    }
}
