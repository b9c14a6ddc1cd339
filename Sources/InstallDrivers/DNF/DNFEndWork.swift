import InstallEngine

/// The one piece of blocking work dnf's end asks `LineDriverRunner` to carry out
/// (`DNFTranslator.perform`): the rpm database read, from which every verdict comes.
struct DNFEndWork: Sendable {
    /// The versions the helper said it kept, to read back and record for undo; `nil` when the
    /// job keeps none.
    var kept: [DNFKeptVersion]?
}
