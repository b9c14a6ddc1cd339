import Testing
import YAMLNodes

@Suite("Node values: integers, booleans and text read as Yams constructs them")
struct NodeValuesTests {
    private func value(_ text: String) throws -> Node {
        try #require(try compose(yaml: "key: \(text)\n")?.mapping?.first?.value)
    }

    @Test(arguments: [
        ("3", 3), ("-3", -3), ("+3", 3), ("0", 0), ("0x1F", 31), ("-0x1F", -31), ("017", 15), ("0o17", 15), ("0b101", 5),
        ("1_000", 1000), ("190:20:30", 685_230), ("-1:30", -90), ("!!int 12", 12),
    ])
    func integers(_ text: String, _ expected: Int) throws {
        #expect(try value(text).int == expected)
    }

    @Test("no integer: quoted, block, fractional, out of range, not a number, or Yams' `-0`")
    func notIntegers() throws {
        for text in ["'3'", "\"3\"", "|\n  3", "3.5", "99999999999999999999", "ten", "-0", "[3]"] {
            #expect(try value(text).int == nil, "\(text)")
        }
    }

    @Test("booleans in any letter case, unless tagged or quoted as a str")
    func booleans() throws {
        #expect(try value("yes").bool == true)
        #expect(try value("Off").bool == false)
        #expect(try value("TRUE").bool == true)
        #expect(try value("!!bool no").bool == false)
        #expect(try value("'yes'").bool == nil)
        #expect(try value("!!str yes").bool == nil)
        #expect(try value("maybe").bool == nil)
        #expect(try value("{a: b}").bool == nil)
    }

    @Test("text: a scalar's, whatever its tag; a mapping's only through a `=` value key")
    func strings() throws {
        #expect(try value("'it''s'").string == "it's")
        #expect(try value("~").string == "~")
        #expect(try value("[a]").string == nil)
        #expect(try value("{x: y}").string == nil)
        #expect(try value("{=: x, a: b}").string == "x")
    }
}
