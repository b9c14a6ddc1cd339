import Testing
@testable import YAMLNodes

@Suite("Compose errors: libyaml's problem, context and marks, described as Yams describes them")
struct ComposeErrorTests {
    private func error(_ yaml: String, _ resolver: Resolver = .default) -> YamlError? {
        #expect(throws: YamlError.self) { try compose(yaml: yaml, resolver) }
    }

    @Test("a scanner error keeps libyaml's context, problem and marks, and its description points at the line")
    func scanner() throws {
        let yaml = "name: x\nquote: 'open\n"
        guard case .scanner(let context, let problem, let mark, _)? = error(yaml) else {
            Issue.record("expected a scanner error")
            return
        }
        #expect(context?.text == "while scanning a quoted scalar")
        #expect(context?.mark == Mark(line: 2, column: 8))
        #expect(problem == "found unexpected end of stream")
        #expect(mark == Mark(line: 3, column: 1))
        #expect(error(yaml)?.description == """
            3:1: error: scanner: while scanning a quoted scalar in line 2, column 8
            found unexpected end of stream:
            quote: 'open
            ^
            """)
    }

    @Test("a tab that indents is a scanner error at the tab")
    func tab() {
        guard case .scanner(_, let problem, let mark, _)? = error("jobs:\n\t- name: x\n") else {
            Issue.record("expected a scanner error")
            return
        }
        #expect(problem == "found character that cannot start any token")
        #expect(mark == Mark(line: 2, column: 1))
    }

    @Test("a parser error: the caret is placed in UTF-16 units under the problem's column")
    func parser() {
        let yaml = "é𝄞:\n  - a\n  b: c\n"
        guard case .parser(let context, let problem, let mark, _)? = error(yaml) else {
            Issue.record("expected a parser error")
            return
        }
        #expect(context?.text == "while parsing a block collection")
        #expect(problem == "did not find expected '-' indicator")
        #expect(mark == Mark(line: 3, column: 3))
        #expect(Mark(line: 1, column: 3).snippet(from: yaml) == "é𝄞:\n   ^")
    }

    @Test("a reader error gives its offset in characters, and the description the line and column")
    func reader() {
        let yaml = "name: x\nbad: \u{1}\n"
        guard case .reader(let problem, let offset, let value, _)? = error(yaml) else {
            Issue.record("expected a reader error")
            return
        }
        #expect(problem == "control characters are not allowed")
        #expect(offset == 13)
        #expect(value == 1)
        #expect(error(yaml)?.description == "2:6: error: reader: control characters are not allowed:\nbad: \u{1}\n     ^")
    }

    @Test("an alias to an anchor not defined yet is a composer error at the alias")
    func undefinedAlias() {
        #expect(error("a: *nope\n")?.description == "1:4: error: composer: found undefined alias:\na: *nope\n   ^")
        // An anchor is defined once its node is complete: a node cannot hold itself.
        guard case .composer(nil, "found undefined alias", let mark, _)? = error("a: &x [*x]\n") else {
            Issue.record("expected a composer error")
            return
        }
        #expect(mark == Mark(line: 1, column: 8))
    }

    @Test("a second document is refused at its start")
    func secondDocument() {
        let yaml = "a: 1\n---\nb: 2\n"
        guard case .composer(let context, let problem, let mark, _)? = error(yaml) else {
            Issue.record("expected a composer error")
            return
        }
        #expect(context?.text == "expected a single document in the stream")
        #expect(context?.mark == Mark(line: 1, column: 1))
        #expect(problem == "but found another document")
        #expect(mark == Mark(line: 2, column: 1))
        #expect(error(yaml)?.description == """
            2:1: error: composer: expected a single document in the stream in line 1, column 1
            but found another document:
            ---
            ^
            """)
    }

    @Test("keys written twice: their texts sorted, the first one's first place, the whole text as context")
    func duplicateKeys() {
        let yaml = "b: 1\na: 2\nb: 3\na: 4\nc: 5\n"
        guard case .duplicatedKeysInMapping(let duplicates, let context)? = error(yaml) else {
            Issue.record("expected duplicate keys")
            return
        }
        #expect(duplicates == ["a", "b"])
        #expect(context.mark == Mark(line: 2, column: 1))
        #expect(context.text == yaml)
        #expect(error(yaml)?.description == """
            Parser: expected all keys to be unique but found the following duplicated key(s): 'a', 'b'.
            Context:
            \(yaml) in line 2, column 1

            """)
    }

    @Test("whether `1` and `\"1\"` are the same key depends on the resolver, as in Yams")
    func duplicateKeysByResolvedTag() throws {
        let yaml = "1: one\n\"1\": quoted one\n"
        #expect(try compose(yaml: yaml, .default)?.mapping?.count == 2)
        guard case .duplicatedKeysInMapping(["1"], let context)? = error(yaml, .basic) else {
            Issue.record("expected duplicate keys")
            return
        }
        #expect(context.mark == Mark(line: 1, column: 1))
    }
}
