/// Composes the one document of `yaml` into its node tree, with libyaml's parser.
///
/// - Parameter resolver: how plain scalars written without a tag are resolved, for `Node.tag`
///   and for telling duplicate keys apart (`Resolver.basic`: `1` and `"1"` are the same key).
/// - Returns: the root node, or `nil` when the text holds no document (empty, or comments only).
/// - Throws: `YamlError` for text that is not YAML, an alias to an anchor not yet defined, a key
///   written twice in one mapping, or a second document.
public func compose(yaml: String, _ resolver: Resolver = .default) throws(YamlError) -> Node? {
    var text = yaml
    let result = text.withUTF8 { utf8 in
        Result { () throws(YamlError) -> Node? in try Composer(yaml: yaml, utf8: utf8, resolver: resolver).singleRoot() }
    }
    return try result.get()
}
