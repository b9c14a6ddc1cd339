import Testing
import YAMLNodes

@Suite("Composed tags: plain scalars resolved as Yams resolves them, written tags kept")
struct ComposeTagTests {
    /// The tag `Node.tag` gives the value of `key: TEXT` composed with `resolver`.
    private func tag(of text: String, _ resolver: Resolver = .default) throws -> YAMLNodes.Tag.Name {
        let root = try #require(try compose(yaml: "key: \(text)\n", resolver))
        return try #require(root.mapping?.first?.value.tag.name)
    }

    @Test(arguments: [
        ("yes", YAMLNodes.Tag.Name.bool), ("no", .bool), ("on", .bool), ("off", .bool), ("true", .bool), ("False", .bool),
        ("~", .null), ("null", .null), ("", .null), ("0x1F", .int), ("017", .int), ("1_000", .int), ("1e3", .float),
        (".inf", .float), ("-.inf", .float), (".nan", .float), ("2.5", .float), ("<<", .merge), ("2001-12-14", .timestamp),
        ("=", .value), ("\"yes\"", .str), ("'3'", .str), ("!!str yes", .str), ("!!int \"3\"", .int), ("! yes", .str),
        ("!local 3", "!local"), ("|\n  yes", .str), ("10s", .str), ("ÿes", .str),
    ])
    func defaultResolver(_ text: String, _ expected: YAMLNodes.Tag.Name) throws {
        #expect(try tag(of: text) == expected)
    }

    @Test("the basic resolver leaves every plain scalar a str, and keeps written tags")
    func basicResolver() throws {
        for text in ["yes", "~", "", "0x1F", "1e3", ".nan", "<<"] {
            #expect(try tag(of: text, .basic) == .str, "\(text)")
        }
        #expect(try tag(of: "!!int 3", .basic) == .int)
        #expect(try tag(of: "!!null ''", .basic) == .null)
    }

    @Test("a scalar's tag as parsed: implicit when plain and untagged, str when quoted, else as written")
    func parsedTags() throws {
        let root = try #require(try compose(yaml: "a: yes\nb: 'yes'\nc: !!bool yes\nd: ! yes\ne: >\n  yes\n"))
        let tags = try #require(root.mapping).map { $0.value.scalar?.tag.name }
        #expect(tags == [.implicit, .str, .bool, .nonSpecific, .str])
    }

    @Test("a mapping's keys carry their resolved tags, as Yams leaves them after comparing them")
    func keysResolved() throws {
        let root = try #require(try compose(yaml: "yes: 1\n~: 2\nname: 3\n"))
        #expect(try #require(root.mapping).map { $0.key.scalar?.tag.name } == [.bool, .null, .str])
        let basic = try #require(try compose(yaml: "yes: 1\n<<: 2\n", .basic))
        #expect(try #require(basic.mapping).map { $0.key.scalar?.tag.name } == [.str, .str])
        // Values are not compared, so they keep the tag as parsed.
        #expect(try #require(root.mapping).map { $0.value.scalar?.tag.name } == [.implicit, .implicit, .implicit])
    }

    @Test("mappings and sequences resolve to map and seq, or keep a written tag")
    func collectionTags() throws {
        let root = try #require(try compose(yaml: "a: {x: 1}\nb: [1]\nc: !!set {x: ~}\nd: !!omap [x: 1]\n"))
        let tags = try #require(root.mapping).map { $0.value.tag.name }
        #expect(tags == [.map, .seq, "tag:yaml.org,2002:set", "tag:yaml.org,2002:omap"])
        #expect(root.tag.name == .map)
    }
}
