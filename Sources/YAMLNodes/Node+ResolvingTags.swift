extension Node {
    /// The node with every tag in it resolved (`Node.tag`'s name written in place), as Yams
    /// leaves a mapping's keys once it has compared them: a plain key `yes` reads with the tag
    /// `bool` under `Resolver.default` and `str` under `Resolver.basic`, never `implicit`.
    func resolvingTags() -> Node {
        switch self {
        case .scalar(let scalar):
            return .scalar(Scalar(scalar.string, scalar.resolvedTag, scalar.style, scalar.mark))
        case .mapping(let mapping):
            return .mapping(Mapping(mapping.map { ($0.key.resolvingTags(), $0.value.resolvingTags()) }, mapping.resolvedTag, mapping.mark))
        case .sequence(let sequence):
            return .sequence(Sequence(sequence.map { $0.resolvingTags() }, sequence.resolvedTag, sequence.mark))
        }
    }
}
