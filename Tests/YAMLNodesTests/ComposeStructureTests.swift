import Testing
@testable import YAMLNodes

@Suite("Composed structure: styles, marks, order, anchors and documents")
struct ComposeStructureTests {
    @Test("scalar styles as written")
    func styles() throws {
        let root = try #require(try compose(yaml: "a: x\nb: 'x'\nc: \"x\"\nd: |\n  x\ne: >\n  x\n"))
        let styles = try #require(root.mapping).map { $0.value.scalar?.style }
        #expect(styles == [.plain, .singleQuoted, .doubleQuoted, .literal, .folded])
    }

    @Test("marks are 1-based lines and columns counted in Unicode scalars, not bytes")
    func marks() throws {
        let root = try #require(try compose(yaml: "# comment\nkey: value\nnested:\n  - é𝄞: [x, y]\n"))
        #expect(root.mark == Mark(line: 2, column: 1))
        let pairs = try #require(root.mapping).map { $0 }
        #expect(pairs[0].key.mark == Mark(line: 2, column: 1))
        #expect(pairs[0].value.mark == Mark(line: 2, column: 6))
        let item = try #require(pairs[1].value.sequence?.first?.mapping?.first)
        #expect(item.key.mark == Mark(line: 4, column: 5))
        #expect(item.value.mark == Mark(line: 4, column: 9))
        #expect(item.value.sequence?.map(\.mark) == [Mark(line: 4, column: 10), Mark(line: 4, column: 13)])
    }

    @Test("mapping pairs keep the document's order, and the text is kept exactly")
    func order() throws {
        let root = try #require(try compose(yaml: "z: 1\na: 2\nm: 02\nq: 'it''s'\nd: \"tab\\there\"\n"))
        let pairs = try #require(root.mapping).map { ($0.key.string, $0.value.string) }
        #expect(pairs.map(\.0) == ["z", "a", "m", "q", "d"])
        #expect(pairs.map(\.1) == ["1", "2", "02", "it's", "tab\there"])
    }

    @Test("an alias is the anchored node itself, with the anchor's mark; a later anchor shadows an earlier one")
    func aliases() throws {
        let root = try #require(try compose(yaml: "a: &x [1, 2]\nb: *x\nc: &x three\nd: *x\n"))
        let values = try #require(root.mapping).map(\.value)
        #expect(values[1] == values[0])
        #expect(values[1].mark == values[0].mark)
        #expect(values[1].sequence?.count == 2)
        #expect(values[3].string == "three")
        #expect(values[3].mark == values[2].mark)
    }

    @Test("merge keys are left to the reader: `<<` is a key like any other")
    func mergeKeys() throws {
        let root = try #require(try compose(yaml: "base: &b {x: 1}\nuse:\n  <<: *b\n  y: 2\n"))
        let use = try #require(root.mapping?.last?.value.mapping)
        #expect(use.map { $0.key.string } == ["<<", "y"])
        #expect(use.first?.key.tag.name == .merge)
    }

    @Test("a text without a document has no root; an empty document is an empty plain scalar")
    func emptyDocuments() throws {
        #expect(try compose(yaml: "") == nil)
        #expect(try compose(yaml: "# only a comment\n\n") == nil)
        let empty = try #require(try compose(yaml: "---\n"))
        #expect(empty.string == "")
        #expect(empty.tag.name == .null)
        #expect(try compose(yaml: "--- 3\n...\n")?.int == 3)
    }

    @Test("nodes are equal by kind, text and resolved tag, whatever their marks and styles")
    func equality() throws {
        let root = try #require(try compose(yaml: "- 1\n- '1'\n- \"1\"\n- !!int 1\n"))
        let items = try #require(root.sequence).map { $0 }
        #expect(items[0] != items[1])
        #expect(items[1] == items[2])
        #expect(items[0] == items[3])
        let basic = try #require(try compose(yaml: "- 1\n- '1'\n", .basic))
        #expect(basic.sequence?.first == basic.sequence?.last)
    }
}
