internal import CYAML

/// One event of libyaml's parser, copied out of libyaml's memory so that the event can be
/// deleted at once.
struct ParserEvent {
    enum Kind {
        case streamStart
        case streamEnd
        case documentStart
        case documentEnd
        case alias(anchor: String)
        /// `tag` is `nil` when none was written (for a quoted scalar, libyaml's `quoted_implicit`:
        /// then the composer gives it `str`, as Yams does).
        case scalar(text: String, tag: String?, style: Node.Scalar.Style, anchor: String?)
        case sequenceStart(tag: String?, anchor: String?)
        case sequenceEnd
        case mappingStart(tag: String?, anchor: String?)
        case mappingEnd
    }

    let kind: Kind
    /// Where the event starts, 1-based.
    let start: Mark

    init(_ event: yaml_event_t) {
        start = Mark(line: event.start_mark.line + 1, column: event.start_mark.column + 1)
        switch event.type {
        case YAML_STREAM_START_EVENT:
            kind = .streamStart
        case YAML_DOCUMENT_START_EVENT:
            kind = .documentStart
        case YAML_DOCUMENT_END_EVENT:
            kind = .documentEnd
        case YAML_ALIAS_EVENT:
            kind = .alias(anchor: Self.text(event.data.alias.anchor) ?? "")
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            // A scalar may hold NUL characters, so its length counts, not a terminator; libyaml
            // hands out valid UTF-8 only.
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let tag = scalar.quoted_implicit == 1 ? Tag.Name.str.rawValue : Self.text(scalar.tag)
            kind = .scalar(text: text, tag: tag, style: Node.Scalar.Style(rawValue: scalar.style.rawValue) ?? .any,
                           anchor: Self.text(scalar.anchor))
        case YAML_SEQUENCE_START_EVENT:
            let sequence = event.data.sequence_start
            kind = .sequenceStart(tag: sequence.implicit != 0 ? nil : Self.text(sequence.tag), anchor: Self.text(sequence.anchor))
        case YAML_SEQUENCE_END_EVENT:
            kind = .sequenceEnd
        case YAML_MAPPING_START_EVENT:
            let mapping = event.data.mapping_start
            kind = .mappingStart(tag: mapping.implicit != 0 ? nil : Self.text(mapping.tag), anchor: Self.text(mapping.anchor))
        case YAML_MAPPING_END_EVENT:
            kind = .mappingEnd
        default:
            // YAML_STREAM_END_EVENT, or YAML_NO_EVENT: what libyaml returns after the stream's end.
            kind = .streamEnd
        }
    }

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(decodingCString: $0, as: UTF8.self) }
    }
}

extension ParserEvent {
    /// Whether the event closes a sequence or a mapping.
    var isEnd: Bool {
        switch kind {
        case .sequenceEnd, .mappingEnd: true
        default: false
        }
    }
}
