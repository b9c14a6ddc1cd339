import Yams

extension Node {
    /// The node's resolved tag (`str`, `int`, `bool`, `null`, `merge`…): what YAML made of a
    /// plain scalar such as `no` or `30`. Quoted scalars are always `str`.
    var tagName: Tag.Name { Tag.Name(rawValue: tag.rawValue) }
}
