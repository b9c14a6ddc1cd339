/// The package root the engine of a command acts on, as that command named it: what a kind
/// whose runs are undone in the engine's own root (apt's) reads for `u` in the history view and
/// `serve`'s `undo`. Both `nil`: this system's.
struct EngineRoot: Sendable, Hashable {
    /// The tool's configuration file the command was given (`--apt-config`), which may move the
    /// tool into another root.
    var configFile: String?
    /// The folder the tool runs inside through chroot (`--chroot`).
    var chroot: String?
}
