internal import CYAML

/// Runs libyaml's parser over one text and builds the node tree from its events, as Yams'
/// `Parser` does: aliases replaced by their anchored nodes, duplicate keys refused, one
/// document expected, and a mapping's keys left with their tags resolved (Yams resolves them
/// in place while comparing them, and readers of its trees rely on it).
///
/// The text's UTF-8 bytes are read in place: they must outlive the composer.
final class Composer {
    private let yaml: String
    private let resolver: Resolver
    private let parser: UnsafeMutablePointer<yaml_parser_t>
    /// Whether libyaml could set up its parser (it allocates its buffers).
    private let isReady: Bool
    /// The latest node defined for each anchor: a later `&name` shadows an earlier one.
    private var anchors: [String: Node] = [:]

    init(yaml: String, utf8 input: UnsafeBufferPointer<UInt8>, resolver: Resolver) {
        self.yaml = yaml
        self.resolver = resolver
        parser = .allocate(capacity: 1)
        parser.initialize(to: yaml_parser_t())
        isReady = yaml_parser_initialize(parser) == 1
        if isReady {
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(parser, input.baseAddress, input.count)
        }
    }

    deinit {
        if isReady { yaml_parser_delete(parser) }
        parser.deinitialize(count: 1)
        parser.deallocate()
    }

    /// The document's root node, or `nil` for a text without a document (empty, or only
    /// comments). A second document is an error, at its start.
    func singleRoot() throws(YamlError) -> Node? {
        guard isReady else { throw .memory }
        _ = try next()  // the stream's start
        guard parser.pointee.stream_end_produced == 0 else { return nil }
        if case .streamEnd = try next().kind { return nil }
        let root = try loadNode(from: try next())
        _ = try next()  // the document's end
        let after = try next()
        guard case .streamEnd = after.kind else {
            throw .composer(context: YamlError.Context(text: "expected a single document in the stream", mark: Mark(line: 1, column: 1)),
                            problem: "but found another document", after.start, yaml: yaml)
        }
        return root
    }

    // MARK: - Events

    private func next() throws(YamlError) -> ParserEvent {
        var event = yaml_event_t()
        guard yaml_parser_parse(parser, &event) == 1 else { throw error() }
        defer { yaml_event_delete(&event) }
        return ParserEvent(event)
    }

    /// libyaml's error, with Yams' marks: 1-based, and for a reader error the offset in
    /// characters rather than bytes.
    private func error() -> YamlError {
        let state = parser.pointee
        let problem = state.problem.map { String(cString: $0) } ?? ""
        let mark = Mark(line: state.problem_mark.line + 1, column: state.problem_mark.column + 1)
        let context = state.context.map {
            YamlError.Context(text: String(cString: $0), mark: Mark(line: state.context_mark.line + 1, column: state.context_mark.column + 1))
        }
        switch state.error {
        case YAML_READER_ERROR:
            let index = yaml.utf8.index(yaml.utf8.startIndex, offsetBy: state.problem_offset, limitedBy: yaml.utf8.endIndex)?
                .samePosition(in: yaml)
            let offset = index.map { yaml.distance(from: yaml.startIndex, to: $0) }
            return .reader(problem: problem, offset: offset, value: state.problem_value, yaml: yaml)
        case YAML_SCANNER_ERROR:
            return .scanner(context: context, problem: problem, mark, yaml: yaml)
        case YAML_PARSER_ERROR:
            return .parser(context: context, problem: problem, mark, yaml: yaml)
        case YAML_COMPOSER_ERROR:
            return .composer(context: context, problem: problem, mark, yaml: yaml)
        default:
            // YAML_MEMORY_ERROR; the parser sets no other error.
            return .memory
        }
    }

    // MARK: - Nodes

    private func loadNode(from event: ParserEvent) throws(YamlError) -> Node {
        switch event.kind {
        case .alias(let anchor):
            // An anchor is defined once its node is complete, so an alias inside its own
            // anchored node is undefined too.
            guard let node = anchors[anchor] else {
                throw .composer(context: nil, problem: "found undefined alias", event.start, yaml: yaml)
            }
            return node
        case .scalar(let text, let tag, let style, let anchor):
            return register(.scalar(Node.Scalar(text, self.tag(tag), style, event.start)), anchor: anchor)
        case .sequenceStart(let tag, let anchor):
            var items: [Node] = []
            var item = try next()
            while !item.isEnd {
                items.append(try loadNode(from: item))
                item = try next()
            }
            return register(.sequence(Node.Sequence(items, self.tag(tag), event.start)), anchor: anchor)
        case .mappingStart(let tag, let anchor):
            var pairs: [Node.Mapping.Element] = []
            var key = try next()
            while !key.isEnd {
                let keyNode = try loadNode(from: key).resolvingTags()
                pairs.append((keyNode, try loadNode(from: try next())))
                key = try next()
            }
            try DuplicateKeys.check(pairs.map(\.key), yaml: yaml)
            return register(.mapping(Node.Mapping(pairs, self.tag(tag), event.start)), anchor: anchor)
        case .streamStart, .streamEnd, .documentStart, .documentEnd, .sequenceEnd, .mappingEnd:
            // libyaml's grammar puts a node here; kept as an error rather than a trap.
            throw .composer(context: nil, problem: "expected a node", event.start, yaml: yaml)
        }
    }

    private func register(_ node: Node, anchor: String?) -> Node {
        if let anchor { anchors[anchor] = node }
        return node
    }

    private func tag(_ written: String?) -> Tag {
        Tag(written.map(Tag.Name.init(rawValue:)) ?? .implicit, resolver)
    }
}
